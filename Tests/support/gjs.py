"""The GNOME Shell extension's code run in GJS, the shell's own JavaScript engine, as the shell runs it.

`evaluate(js, body, data)` imports the JavaScript file at `js` as `Lib` (a legacy GJS module, as GNOME Shell 43
imports an extension's files: its top-level `var`s and functions are the module's), hands `data` (JSON) to
`body` (JavaScript statements that read `data` and set `out`, the same bodies support.qml.evaluate takes), and
returns `out` (JSON). Fails when gjs prints no result.
"""

import json
import os
import shutil
import tempfile

from support import paths

RUNNER = """
const { GLib } = imports.gi;
imports.searchPath.unshift(%(directory)s);
const Lib = imports.lib;
const data = JSON.parse(new TextDecoder().decode(GLib.file_get_contents(%(data)s)[1]));
var out = null;
%(body)s
print("GJSRESULT " + JSON.stringify(out));
"""


def evaluate(js, body, data, timeout=300):
    paths.require_tools("gjs")
    with tempfile.TemporaryDirectory(prefix="pam_pattern-gjs.") as work:
        shutil.copyfile(js, os.path.join(work, "lib.js"))
        data_path = os.path.join(work, "data.json")
        with open(data_path, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
        runner = os.path.join(work, "runner.js")
        with open(runner, "w", encoding="utf-8") as out:
            out.write(RUNNER % {"directory": json.dumps(work), "data": json.dumps(data_path), "body": body})
        result = paths.run(["gjs", runner], timeout=timeout)
    output = result.stdout.decode(errors="replace") + result.stderr.decode(errors="replace")
    found = [line for line in output.splitlines() if line.startswith("GJSRESULT ")]
    if len(found) != 1:
        raise AssertionError("gjs printed no result (status %d):\n%s" % (result.returncode, output))
    return json.loads(found[0].split("GJSRESULT ", 1)[1])
