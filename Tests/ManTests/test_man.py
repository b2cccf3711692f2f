"""The man pages render cleanly and document what the code does: every module
option the parser knows, and every PAM code the module can return."""

import os
import re
import subprocess
import unittest

from support.paths import ROOT


# The options by where they may be set: in the PAM line, in pam_pattern.conf, or in either.
EITHER_PLACE = {"store", "state", "layout", "minlen", "deny", "unlock_time", "lock_after"}
ARGUMENT_ONLY = {
    "conf",
    "nullok",
    "show_grid",
    "prompt",
    "forward_pass",
    "forward_non_pattern",
    "empty_fails",
    "allow_remote",
    "reset_on_success",
    "debug",
}
CONF_ONLY = {"cost", "strength", "self_enroll", "tpm", "tpm_tcti", "quiet_services"}


def read(*parts):
    with open(os.path.join(ROOT, *parts)) as f:
        return f.read()


def read_source(name):
    """The source file called `name`, in whichever folder under Sources/ it sits (file names are unique)."""
    found = [os.path.join(d, name) for d, _, files in os.walk(os.path.join(ROOT, "Sources")) if name in files]
    assert len(found) == 1, (name, found)
    with open(found[0]) as f:
        return f.read()


def option_table():
    """The rows of PatternOption.table as {name: scope}, read from the one place options are declared.
    Every key of OptionKey must have been read, so a row written another way fails here instead of
    escaping the documentation checks."""
    source = read_source("PatternOption.swift")
    # One row may span lines (swift format wraps long ones): match on the text with whitespace runs collapsed,
    # never across the start of the next row.
    flat = re.sub(r"\s+", " ", source)
    rows = dict(
        re.findall(r'PatternOption\( ?\.\w+, "([a-z_]+)", (?:(?!PatternOption\().)*?, \.(argument|conf|both), "', flat)
    )
    enum = re.search(r"public enum OptionKey\b[^{]*\{(.*?)\n\}", source, re.S).group(1)
    keys = re.findall(
        r"\b(\w+)\b",
        " ".join(line.split("case", 1)[1] for line in enum.splitlines() if line.strip().startswith("case")),
    )
    assert len(rows) == len(keys), (sorted(rows), keys)
    return rows


def option_ranges():
    """{name: (low, high)} of the number options, as PatternOption.table declares them: every range there, but
    for the two a lower layer of the core declares and the table takes (`.counting(Pattern.minimumLengthRange)`:
    read where it is declared)."""
    source = read_source("PatternOption.swift")
    ranges = {}
    for name, low, high, owner, constant in re.findall(
        r'PatternOption\(\s*\.\w+, "([a-z_]+)", \.(?:number\(([\d_]+)\.\.\.([\d_]+)\)|counting\((\w+)\.(\w+)\))', source
    ):
        if owner:
            declared = re.search(
                r"static let %s: ClosedRange<Int> = ([\d_]+)\.\.\.([\d_]+)" % constant, read_source(owner + ".swift")
            )
            low, high = declared.groups()
        ranges[name] = (int(low.replace("_", "")), int(high.replace("_", "")))
    return ranges


def between(text, start, end):
    """The text from `start` to `end` (both must be there)."""
    at = text.index(start)
    return text[at : text.index(end, at)]


def entry(page, start):
    """The paragraph of the .TP entry that starts with `start`."""
    at = page.index(start)
    end = page.find("\n.TP", at)
    return page[at : end if end >= 0 else len(page)]


def entry_block(page, heading):
    """The text of a .SH section."""
    at = page.index(heading)
    end = page.find("\n.SH ", at + 1)
    return page[at : end if end >= 0 else len(page)]


class ManPageTests(unittest.TestCase):
    def test_render_without_warnings(self):
        for page in (
            "pam_pattern.8",
            "patternctl.8",
            "pam_pattern_helper.8",
            "auth_pattern.8",
            "pam-pattern-greeter.8",
            "pam_pattern.conf.5",
            "pattern-lock.1",
        ):
            r = subprocess.run(
                ["groff", "-man", "-ww", "-z", os.path.join(ROOT, "man", page)], capture_output=True, text=True
            )
            self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""), page)

    def test_every_list_of_the_pam_d_only_options_names_them_all(self):
        # Each place that says which options the configuration file refuses lists them; conf= is not about
        # how a service talks to its user, so the lists that say so may leave it out.
        lists = {
            "docs/reference.md": between(
                read("docs", "reference.md"), "how one service talks to its user", "is on pam.d lines only"
            ),
            "pam_pattern(8)": between(read("man", "pam_pattern.8"), "The other options (", "belong on pam.d lines"),
            "pam_pattern.conf(5)": between(
                read("man", "pam_pattern.conf.5"), "how one service talks to its user", "belong on pam.d lines"
            ),
            "security/pam_pattern.conf": between(
                read("security", "pam_pattern.conf"), "How a service talks to its user", "is set on pam.d"
            ),
        }
        for place, text in lists.items():
            named = set(re.findall(r"[a-z_]+", text.replace("\\-", "-")))
            with self.subTest(place):
                self.assertLessEqual(ARGUMENT_ONLY - {"conf"}, named, "%s: the list misses some" % place)

    def test_every_variable_the_pad_reads_is_documented(self):
        source = read("Sources", "Surfaces", "shared", "x11", "PadSettings.swift")
        variables = set(re.findall(r'variable\("(XSECURELOCK_\w+)"\)', source))
        self.assertGreaterEqual(len(variables), 4, variables)
        man = read("man", "auth_pattern.8").replace("\\-", "-")
        documented = set(re.findall(r"^\.B (XSECURELOCK_\w+)$", entry_block(man, ".SH OPTIONS"), re.M))
        self.assertEqual(variables, documented)

    def test_every_module_option_is_documented(self):
        rows = option_table()
        arguments = {name for name, scope in rows.items() if scope != "conf"}
        self.assertEqual(arguments, EITHER_PLACE | ARGUMENT_ONLY)
        man, readme = read("man", "pam_pattern.8"), read("docs", "reference.md")
        for name in arguments:
            self.assertRegex(man, r"\.B[RI]? " + name + r"\b", f"pam_pattern(8) does not document {name}")
            self.assertIn(f"`{name}", readme, f"docs/reference.md does not document {name}")

    def test_every_conf_key_is_documented_and_nothing_else(self):
        rows = option_table()
        keys = {name for name, scope in rows.items() if scope != "argument"}
        self.assertEqual(keys, EITHER_PLACE | CONF_ONLY)
        man = read("man", "pam_pattern.conf.5")
        options = man.split(".SH OPTIONS")[1].split(".SH EXAMPLES")[0]
        documented = set(re.findall(r"^\.TP\n\.B[RI]? ([a-z_]+)\b", options, re.M))
        self.assertEqual(documented, keys, "pam_pattern.conf(5) OPTIONS must list exactly the conf keys")
        shipped = read("security", "pam_pattern.conf")
        self.assertEqual(
            set(re.findall(r"^# ([a-z_]+) = ", shipped, re.M)),
            keys,
            "the installed pam_pattern.conf shows every key with its default",
        )
        readme = read("docs", "reference.md")
        for name in keys:
            self.assertIn(f"`{name}", readme, f"docs/reference.md does not document {name}")
        # the module's page says which options are file-only
        for name in keys - {name for name, scope in rows.items() if scope == "both"}:
            self.assertIn(name, read("man", "pam_pattern.8"))

    def test_every_range_spelled_is_the_tables(self):
        ranges, rows = option_ranges(), option_table()
        self.assertEqual(set(ranges), {"minlen", "deny", "unlock_time", "lock_after", "cost", "strength"})
        module, conf, ctl = read("man", "pam_pattern.8"), read("man", "pam_pattern.conf.5"), read("man", "patternctl.8")
        for name, (low, high) in ranges.items():
            spelled = f"{low} to {high}"
            if rows[name] != "conf":
                self.assertIn(spelled, entry(module, f".BI {name}= "), f"pam_pattern(8) {name}")
            if rows[name] != "argument":
                self.assertIn(spelled, entry(conf, f'.BI {name} " = '), f"pam_pattern.conf(5) {name}")
        # patternctl's flags for the pattern rules take the same ranges
        self.assertIn("%d to %d" % ranges["minlen"], entry(ctl, ".BI \\-\\-min\\-length "))
        self.assertIn("%d to %d" % ranges["cost"], ctl.split(".B \\-\\-cost\n.I n\n", 1)[1].split("\n", 1)[0])

    def test_every_returned_code_is_documented(self):
        source = read_source("AuthOutcome.swift")
        codes = set(re.findall(r"return (PAM_[A-Z_]+)", source))
        self.assertGreaterEqual(len(codes), 6, codes)
        man, readme = read("man", "pam_pattern.8"), read("docs", "reference.md")
        for code in codes:
            self.assertIn(code, man, f"pam_pattern(8) RETURN VALUES misses {code}")
            self.assertIn(code, readme, f"docs/reference.md, Return values, misses {code}")

    def test_helper_protocol_is_documented(self):
        """pam_pattern_helper(8) names every operation, verdict word and exit status the protocol code has."""
        source = read_source("HelperProtocol.swift")
        man = read("man", "pam_pattern_helper.8").replace("\\-", "-")
        exits = re.findall(r"case \w+ = (\d+)", source)
        self.assertEqual(len(exits), 8, exits)
        exit_section = man.split(".SH EXIT STATUS", 1)[1].split(".SH", 1)[0]
        for number in exits:
            self.assertIn(".B %s\n" % number, exit_section, f"exit status {number} is not documented")
        words = set(re.findall(r'"([a-z][a-z-]*) ?"\.utf8', source))
        self.assertTrue(
            {"check", "verify", "authenticate", "accepted", "not-enrolled", "refused", "expired", "tty"} <= words, words
        )
        for word in words:
            self.assertRegex(man, r"\b" + re.escape(word) + r"\b", f"pam_pattern_helper(8) does not mention {word}")


if __name__ == "__main__":
    unittest.main()
