"""A JavaScript library of the QML surfaces run in Qt's own engine (qmlscene, offscreen), as the greeters run it.

`evaluate(js, body, data)` imports the library at `js` as `Lib`, hands `data` (JSON) to `body` (JavaScript
statements that read `data` and set `out`), and returns `out` (JSON). Fails when qmlscene prints no result.
"""

import json
import os
import tempfile

from support import paths

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
