#!/usr/bin/env python3
"""One of the GNOME Shell extension's shared files (a legacy GJS module, as GNOME Shell 43 loads an extension's
files) made into the ES module GNOME Shell 45 and later load: `es_module.py FILE > OUT`. The shared files are
written once, for 43; this is the build's whole translation, line by line:

    const { A, B } = imports.gi;                     import A from 'gi://A'; import B from 'gi://B';
    const X = imports.gdm.authPrompt;                import * as X from 'resource:///org/gnome/shell/gdm/authPrompt.js';
    const Me = imports.misc.extensionUtils...;       (dropped: an ES module imports its neighbours by path)
    const X = Me.imports.name;                       import * as X from './name.js';
    const { A } = Me.imports.name;                   import { A } from './name.js';
    var / function at the top level                  export var / export function (what a legacy module exports)
    .pragma library (the QML surfaces' shared files) dropped

Any other use of `imports` or `Me` fails the build, so a form this does not know is never shipped half-translated.
"""

import re
import sys

GI = re.compile(r"^const \{ ?([\w, ]+?) ?\} = imports\.gi;$")
SHELL = re.compile(r"^const (\w+) = imports\.([\w.]+);$")
ME = "const Me = imports.misc.extensionUtils.getCurrentExtension();"
OWN = re.compile(r"^const (\w+|\{ ?[\w, ]+? ?\}) = Me\.imports\.(\w+);$")
EXPORTED = re.compile(r"^(var|function) ")
LEFT = re.compile(r"\bimports\.|\bMe\.")


def translated(lines):
    out = []
    for number, line in enumerate(lines, 1):
        text = line.rstrip("\n")
        if text == ".pragma library" or text == ME:
            continue
        if m := GI.match(text):
            out += ["import %s from 'gi://%s';" % (name, name) for name in re.split(r", ?", m.group(1))]
        elif m := OWN.match(text):
            name = m.group(1) if m.group(1).startswith("{") else "* as " + m.group(1)
            out.append("import %s from './%s.js';" % (name, m.group(2)))
        elif m := SHELL.match(text):
            path = m.group(2).replace(".", "/")
            out.append("import * as %s from 'resource:///org/gnome/shell/%s.js';" % (m.group(1), path))
        elif LEFT.search(text.split("//", 1)[0]):
            raise SystemExit("line %d: no ES module form known for: %s" % (number, text))
        else:
            out.append(EXPORTED.sub(r"export \1 ", text))
    return "".join(line + "\n" for line in out)


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(translated(f.readlines()))
