"""The QML surfaces' code run in Qt's own engines, as the greeters run it.

`evaluate(js, body, data)` imports the JavaScript library at `js` as `Lib` (qmlscene, offscreen), hands `data`
(JSON) to `body` (JavaScript statements that read `data` and set `out`), and returns `out` (JSON). Fails when
qmlscene prints no result. `run_qt_tests(test, tests)` runs a tst_*.qml file in Qt's test runner.
"""

import json
import os
import re
import tempfile

from support import paths, xvfb

RUNNER = """
import QtQuick 2.0
import "%(js)s" as Lib

Item {
    Component.onCompleted: {
        var request = new XMLHttpRequest()
        request.open("GET", "%(data)s", false)
        request.send(null)
        var data = JSON.parse(request.responseText)
        var out = null
%(body)s
        console.log("QMLRESULT " + JSON.stringify(out))
        Qt.quit()
    }
}
"""


def evaluate(js, body, data, timeout=300):
    with tempfile.TemporaryDirectory(prefix="pam_pattern-qml.") as work:
        data_path = os.path.join(work, "data.json")
        with open(data_path, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
        runner = os.path.join(work, "runner.qml")
        with open(runner, "w", encoding="utf-8") as out:
            out.write(RUNNER % {"js": "file://" + js, "data": "file://" + data_path, "body": body})
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QML_XHR_ALLOW_FILE_READ="1", XDG_RUNTIME_DIR=work)
        result = paths.run(["qmlscene", runner], env=env, timeout=timeout)
    output = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    found = [line for line in output.splitlines() if "QMLRESULT " in line]
    if len(found) != 1:
        raise AssertionError("qmlscene printed no result (status %d):\n%s" % (result.returncode, output))
    return json.loads(found[0].split("QMLRESULT ", 1)[1])


# Qt's own test runner: a tst_*.qml file's TestCase functions, run with the mouse and the screen of a real X
# server (a private Xvfb), as the QML surfaces' component tests need.
TEST_RUNNER = "/usr/lib/qt5/bin/qmltestrunner"


def run_qt_tests(test, tests, source=None, screen="1024x768x24", lang=None, least=1):
    """Runs the Qt test file `tests` (a copy of `source`, the file in the tree, when the test made one) in
    qmltestrunner on a private Xvfb of `screen`, LANG `lang`; fails `test` unless every test function of
    `source` (at least `least` of them) passed, none failed or was skipped. Returns the runner's output."""
    if not os.path.exists(TEST_RUNNER):
        raise AssertionError("qmltestrunner is not installed (make deps: qml-module-qttest)")
    paths.require_tools("Xvfb")
    source = source or tests
    with tempfile.TemporaryDirectory(prefix="pam_pattern-qmltest.") as work:
        os.chmod(work, 0o700)  # also XDG_RUNTIME_DIR, which Qt wants private
        script = "W=%s\nexport XDG_RUNTIME_DIR=$W QT_QPA_PLATFORM=xcb\n" % work
        if lang:
            script += "export LANG=%s LC_ALL=\n" % lang
        script += xvfb.start("-screen 0 %s" % screen)
        script += "%s -input %s; status=$?\nkill $xpid\nexit $status\n" % (TEST_RUNNER, tests)
        result = paths.run(["sh", "-c", script], timeout=120 + xvfb.START_SECONDS)
    output = result.stdout.decode() + result.stderr.decode()
    totals = re.search(r"Totals: (\d+) passed, (\d+) failed, (\d+) skipped", output)
    test.assertIsNotNone(totals, output)
    passed, failed, skipped = map(int, totals.groups())
    test.assertEqual((failed, skipped), (0, 0), output)
    test.assertEqual(result.returncode, 0, output)
    # Every test function ran (plus initTestCase and cleanupTestCase).
    with open(source) as f:
        functions = len(re.findall(r"^\s+function test_", f.read(), re.M))
    test.assertGreaterEqual(functions, least)
    test.assertEqual(passed, functions + 2, output)
    return output
