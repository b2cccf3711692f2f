"""Every option patternctl accepts is documented where people look: the man page patternctl(8) and the
bash completion (completion/patternctl).

The option list is read from patternctl's own help, whose Options sections are made from the option specs
the parser uses; so an option added to a spec without a line in the man page, or in a form the completion
cannot read, fails here."""

import os
import re
import shlex
import subprocess
import unittest

from support.cli import run
from support.paths import PATTERNCTL, ROOT, require_built

MAN_PAGE = os.path.join(ROOT, "man", "patternctl.8")
COMPLETION = os.path.join(ROOT, "completion", "patternctl")
# "  -h, --help   ..." / "  --store PATH   ..." / "  --layout phone|numpad  ...": short, long, value.
OPTION_LINE = re.compile(r"^  (?:-([a-z]), )?--([a-z][a-z-]*)(?: ([A-Za-z|]+))?(?: {2,}|$)")


def help_options(*command):
    """{long name: takes a value} from the Options sections of `patternctl [COMMAND] --help`."""
    result = run(*command, "--help")
    assert result.code == 0, result
    options, in_section = {}, False
    for line in result.out.split("\n"):
        if line.startswith("Options"):
            in_section = True
        elif not line.strip():
            in_section = False
        elif in_section and (match := OPTION_LINE.match(line)):
            options[match.group(2)] = match.group(3) is not None
    return options


def commands():
    """The commands the overview lists ("  set [USER]   ..." under "Commands:")."""
    text = run("--help").out
    section = text.split("\nCommands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in section.split("\n")]


def man_options(text):
    """Long option names written in roff ("\\-\\-min\\-length" -> "min-length")."""
    return {name.replace("\\-", "-") for name in re.findall(r"\\-\\-([a-z](?:[a-z]|\\-)*)", text)}


def man_sections():
    with open(MAN_PAGE) as handle:
        page = handle.read()
    return dict(re.findall(r"^\.SH ([A-Z ]+)\n(.*?)(?=^\.SH |\Z)", page, re.M | re.S))


def completion(function, *arguments):
    """The words a function of the completion script prints, with patternctl on PATH as the built one."""
    script = "source %s\n%s %s\n" % (
        shlex.quote(COMPLETION),
        function,
        " ".join(shlex.quote(a) for a in arguments),
    )
    env = {"PATH": os.path.dirname(PATTERNCTL) + ":/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/"}
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0 and done.stderr == "", done
    return done.stdout.split()


class OptionDocumentationTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_built(PATTERNCTL)
        cls.globals = help_options()
        cls.commands = commands()
        cls.own = {name: {o: v for o, v in help_options(name).items() if o not in cls.globals} for name in cls.commands}

    def test_the_help_lists_options_at_all(self):
        # The parse above must find something, or every check below would pass on nothing.
        self.assertTrue({"conf", "store", "layout", "help", "version"} <= set(self.globals), self.globals)
        self.assertTrue(self.globals["store"] and not self.globals["help"])
        self.assertIn("help", self.commands)
        self.assertEqual(set(self.own["set"]), {"cost", "allow-weak", "forgot", "draw", "ascii", "unicode"})

    def test_man_page_options_section_lists_exactly_the_global_options(self):
        section = man_sections()["OPTIONS"].split(".SS ", 1)[0]
        headings = "\n".join(re.findall(r"^\.TP\n(.*)$", section, re.M))
        self.assertEqual(man_options(headings), set(self.globals))
        self.assertIn("\\-h", headings, "the short -h")

    def test_man_page_documents_every_command_option(self):
        sections = man_sections()
        synopsis = sections["SYNOPSIS"].split(".br\n")
        for command, options in self.own.items():
            with self.subTest(command=command):
                blocks = [b for b in synopsis if re.search(r"^\.B (patternctl )?%s$" % command, b, re.M)]
                self.assertEqual(len(blocks), 1, "SYNOPSIS of %s" % command)
                self.assertEqual(man_options(blocks[0]), set(options), "SYNOPSIS of %s" % command)
                self.assertTrue(set(options) <= man_options(sections["COMMANDS"]), "COMMANDS of %s" % command)

    def test_completion_offers_every_option(self):
        self.assertEqual(
            sorted(completion("_patternctl_options", "patternctl")), sorted(["-h"] + ["--" + o for o in self.globals])
        )
        for command, options in self.own.items():
            with self.subTest(command=command):
                offered = completion("_patternctl_options", "patternctl", command)
                # help takes no options of its own and its help lists none
                expected = [] if command == "help" else ["-h"] + ["--" + o for o in {**self.globals, **options}]
                self.assertEqual(sorted(offered), sorted(expected))

    def test_completion_knows_which_options_take_a_value(self):
        # An option's value must not be taken for the command or an operand.
        for command, options in [(None, self.globals)] + list(self.own.items()):
            if command == "help":
                continue
            with self.subTest(command=command):
                takes = {o for o, value in {**self.globals, **options}.items() if value}
                found = completion("_patternctl_value_options", "patternctl", *([command] if command else []))
                self.assertEqual(set(found), {"--" + o for o in takes})


if __name__ == "__main__":
    unittest.main()
