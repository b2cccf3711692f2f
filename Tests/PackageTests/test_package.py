"""`make deb`: the package's contents, lintian, and its whole life on a real
system: apt install, pam-auth-update, real sudo, reinstall, upgrade, remove,
purge.

Every expectation comes from packaging/install.list (through
`make print-install-list LAYOUT=debian`) or from docs/reference.md, so a new
installed file is one new line there.

Where it installs: a private mount namespace (a holder process made with
`unshare --mount`) in which /usr, /etc and /var are overlays whose upper
layers live in a temporary directory (/etc's lower layer is a copy). apt, dpkg, pam-auth-update, useradd and
sudo run there (nsenter) and write only to the upper layers; the real
/etc/pam.d and the real dpkg database are checked unchanged afterwards. After
the purge the upper layers ARE the list of what the package left behind.
Root only; holds the real-client lock (test users, /etc). About 40 s.
"""

import fcntl
import gzip
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time
import unittest

from support import debs
from support.paths import BUILD, ROOT
from support.tpm import SoftwareTPM, require_swtpm

PACKAGE = debs.BASE
PATTERN = "2946138"
WRONG = "24678"
ENROLLED, OTHER = "ppdeb-enrolled", "ppdeb-other"
PASSWORDS = {ENROLLED: "Enrolled-pw-4711", OTHER: "Other-pw-0815"}
STORE_DIR, STATE_DIR = "/etc/security/pam_pattern", "/var/lib/pam_pattern"
SUDOERS_DROPIN = "/etc/sudoers.d/ppdeb-test"
# Files the test itself writes inside the namespace (users, passwords, sudo rights).
TEST_MADE = {
    "/etc/passwd",
    "/etc/passwd-",
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/group",
    "/etc/group-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/subuid",
    "/etc/subuid-",
    "/etc/subgid",
    "/etc/subgid-",
    SUDOERS_DROPIN,
}
# What dpkg, apt, debconf and man-db keep about any package they handled (not the package's own files).
BOOKKEEPING = (
    "/var/lib/dpkg/",
    "/var/log/",
    "/var/cache/debconf/",
    "/var/cache/man/",
    "/var/cache/apt/",
    "/var/lib/apt/",
    "/var/lib/sudo/",
)
RUN_LOCK = "/run/lock/pam_pattern-real-clients.lock"


def built_deb():
    """The package of this tree (`make deb`), made once per run: every suite that installs it installs these bytes."""
    return debs.built()[PACKAGE]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def tree(path):
    """{relative path: (mode, uid, gid, sha256 or None)} for a directory tree, or {} if missing."""
    out = {}
    for directory, dirs, files in os.walk(path):
        for name in sorted(dirs + files):
            p = os.path.join(directory, name)
            st = os.lstat(p)
            digest = sha256(p) if stat.S_ISREG(st.st_mode) else None
            out[os.path.relpath(p, path)] = (st.st_mode, st.st_uid, st.st_gid, digest)
    return out


def real_dpkg_knows_the_package():
    """The host's dpkg database on this package (other suites may install unrelated packages meanwhile)."""
    with open("/var/lib/dpkg/status") as f:
        in_status = ("\nPackage: %s\n" % PACKAGE) in ("\n" + f.read())
    scripts = sorted(n for n in os.listdir("/var/lib/dpkg/info") if n.startswith(PACKAGE + "."))
    return in_status, scripts


def install_rows():
    """(source, destination, mode) of every installed file, Debian layout; the directories apart."""
    return debs.install_rows(PACKAGE)


def packaged_path(dst):
    """Where a list destination ends up in the package (Debian gzips man pages)."""
    return dst + ".gz" if dst.startswith("/usr/share/man/") else dst


def readme_package_files():
    """The file list in the reference's "Install the package" section, for this machine's multiarch."""
    with open(os.path.join(ROOT, "docs", "reference.md")) as f:
        section = f.read().split("## Install the package", 1)[1].split("\n## ", 1)[0]
    multiarch = subprocess.run(["gcc", "-print-multiarch"], capture_output=True, text=True).stdout.strip()
    return sorted(
        line.strip().replace("x86_64-linux-gnu", multiarch or "x86_64-linux-gnu")
        for line in section.splitlines()
        if re.match(r"^    /\S+$", line)
    )


def leftovers(ns):
    """Everything in the overlays' upper layers that the package (not the test, not dpkg's books) left."""
    left = []
    for layer in ns.LAYERS:
        upper = ns.upper(layer)
        for directory, dirs, files in os.walk(upper):
            for name in dirs + files:
                p = os.path.join(directory, name)
                inside = os.path.join(layer, os.path.relpath(p, upper))
                before = os.path.join(ns.lower(layer), os.path.relpath(p, upper))
                st = os.lstat(p)
                if stat.S_ISCHR(st.st_mode) and st.st_rdev == 0:
                    left.append(inside + " (deleted a file that was there before)")
                elif inside in TEST_MADE or inside.startswith(BOOKKEEPING + tuple(ns.scratch)):
                    continue
                elif stat.S_ISDIR(st.st_mode):
                    if not os.path.isdir(before):  # no such directory before the test
                        left.append(inside + "/")
                elif not os.path.lexists(before):
                    left.append(inside)
                elif not os.path.islink(p) and (not os.path.isfile(before) or sha256(before) != sha256(p)):
                    left.append(inside + " (changed)")
    return sorted(left)


class Namespace:
    """A mount namespace with overlays on /usr, /etc and /var; gone when its holder is killed."""

    LAYERS = ("/usr", "/etc", "/var")
    # Over the host's own system: its tests hold the real-client lock and check the host unchanged after.
    ON_HOST = True
    # Paths a test's own setup writes to (none: the host's /tmp is not an overlay).
    scratch = ()

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="pp-deb-ns.")
        self.holder = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sleep", "infinity"])
        # /etc's lower layer is a copy taken now, so other suites' users and lock files
        # (useradd's /etc/passwd.lock) come and go without reaching in here.
        subprocess.run(["cp", "-a", "/etc", self.lower("/etc")], check=True)
        for name in os.listdir(self.lower("/etc")):
            if name.endswith(".lock") and not name.startswith("."):  # .pwd.lock is permanent
                os.unlink(os.path.join(self.lower("/etc"), name))
        # Service files other suites hold for a moment (they name their own build's module).
        pam_d = os.path.join(self.lower("/etc"), "pam.d")
        for name in os.listdir(pam_d):
            with open(os.path.join(pam_d, name), "rb") as f:
                if b"pam_pattern" in f.read():
                    os.unlink(os.path.join(pam_d, name))
        mounts = []
        for layer in self.LAYERS:
            name = layer.strip("/")
            for part in ("upper", "work"):
                os.makedirs(os.path.join(self.dir, name, part))
            mounts.append(
                "mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s"
                % (self.lower(layer), self.upper(layer), os.path.join(self.dir, name, "work"), layer)
            )
        # sudo's timestamps stay inside too
        mounts.append(
            "mount -t tmpfs -o mode=0711 tmpfs /run/sudo 2>/dev/null || "
            "{ mkdir -p /run/sudo && mount -t tmpfs -o mode=0711 tmpfs /run/sudo; }"
        )
        deadline = time.monotonic() + 10
        while os.readlink("/proc/%d/ns/mnt" % self.holder.pid) == os.readlink("/proc/self/ns/mnt"):
            if time.monotonic() > deadline:
                raise AssertionError("the namespace holder never left the host's mount namespace")
            time.sleep(0.02)
        self.sh(" && ".join(mounts))

    def lower(self, layer):
        return os.path.join(self.dir, "etc-lower") if layer == "/etc" else layer

    def upper(self, layer):
        return os.path.join(self.dir, layer.strip("/"), "upper")

    def path(self, p):
        """A path inside the namespace, seen from outside."""
        return "/proc/%d/root%s" % (self.holder.pid, p)

    def enter(self, argv):
        """argv run inside the namespace, as root."""
        return ["nsenter", "-t", str(self.holder.pid), "-m", "--", *argv]

    def share(self, path):
        """A host directory at the same path inside (the host's /tmp is already there)."""
        return path

    def run(self, argv, input=None, check=True, timeout=120):
        env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C"}
        r = subprocess.run(
            self.enter(argv),
            input=input,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
        if check and r.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s%s" % (argv, r.returncode, r.stdout, r.stderr))
        return r

    def sh(self, script, **kw):
        return self.run(["bash", "-euo", "pipefail", "-c", script], **kw)

    def close(self):
        self.holder.send_signal(signal.SIGKILL)
        self.holder.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


@unittest.skipUnless(os.geteuid() == 0, "needs root: installs the package (in a private mount namespace)")
class PackageTests(unittest.TestCase):
    # Where the package is installed: the host's overlays here, Debian 13 in test_debian13.
    NAMESPACE = Namespace

    @classmethod
    def setUpClass(cls):
        for tool in ("dpkg-deb", "lintian", "apt-get", "nsenter", "unshare", "sudo", "useradd"):
            if not shutil.which(tool):
                raise unittest.SkipTest("%s is not installed (make deps)" % tool)
        cls.lock = None
        if cls.NAMESPACE.ON_HOST:
            cls.lock = os.open(RUN_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            deadline = time.monotonic() + 300
            while True:
                try:
                    fcntl.flock(cls.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        os.close(cls.lock)
                        raise AssertionError("another suite holds %s for 300 s" % RUN_LOCK)
                    time.sleep(1)
            cls.real_before = (tree("/etc/pam.d"), real_dpkg_knows_the_package())
        cls.deb = built_deb()
        # The same build as version+1: the upgrade path, and a second build to compare bytes with.
        version = subprocess.run(["dpkg-deb", "-f", cls.deb, "Version"], capture_output=True, text=True).stdout.strip()
        cls.newer = debs.built(version + "+1")[PACKAGE]
        cls.rows, cls.directories = install_rows()

    @classmethod
    def tearDownClass(cls):
        try:
            if cls.lock is not None and tree("/etc/pam.d") != cls.real_before[0]:
                raise AssertionError("the real /etc/pam.d changed")
            if cls.lock is not None and real_dpkg_knows_the_package() != cls.real_before[1]:
                raise AssertionError("the real dpkg database gained or lost %s" % PACKAGE)
        finally:
            if cls.lock is not None:
                os.close(cls.lock)

    def extract(self):
        d = tempfile.mkdtemp(prefix="pp-deb-x.")
        self.addCleanup(shutil.rmtree, d, ignore_errors=True)
        subprocess.run(["dpkg-deb", "-x", self.deb, d], check=True)
        subprocess.run(["dpkg-deb", "-e", self.deb, os.path.join(d, "DEBIAN")], check=True)
        return d

    def field(self, name):
        return subprocess.run(
            ["dpkg-deb", "-f", self.deb, name], capture_output=True, text=True, check=True
        ).stdout.strip()

    def expected_files(self):
        doc = "/usr/share/doc/" + PACKAGE
        files = {packaged_path(dst) for _, dst, _ in self.rows} | {doc + "/changelog.gz", doc + "/copyright"}
        with open(os.path.join(ROOT, "debian", "lintian-overrides")) as f:
            if any(l.strip() and not l.lstrip().startswith("#") for l in f):
                files.add("/usr/share/lintian/overrides/" + PACKAGE)
        return sorted(files)

    # -- the package as built -------------------------------------------------

    def test_name_version_and_arch(self):
        arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
        version = subprocess.run(
            ["dpkg-parsechangelog", "-l", os.path.join(ROOT, "debian/changelog"), "-SVersion"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        # The changelog's version at its release tag, else one of this commit's own (packaging/version.sh).
        stamped = subprocess.run(
            [os.path.join(ROOT, "packaging/version.sh")], capture_output=True, text=True, check=True
        ).stdout.strip()
        self.assertTrue(stamped.startswith(version), stamped)
        self.assertEqual(os.path.basename(self.deb), "%s_%s_%s.deb" % (PACKAGE, stamped, arch))
        patternctl = subprocess.run([os.path.join(BUILD, "patternctl"), "--version"], capture_output=True, text=True)
        self.assertIn(version, patternctl.stdout, "patternctl --version and the changelog disagree")

    def test_files_are_the_build_and_the_list_byte_for_byte(self):
        d = self.extract()
        self.assertEqual(debs.unpacked_files(d), self.expected_files())
        for src, dst, mode in self.rows:
            with self.subTest(dst):
                path = d + packaged_path(dst)
                if path.endswith(".gz"):
                    with gzip.open(path) as f, open(src, "rb") as g:
                        self.assertEqual(f.read(), g.read(), "%s is not %s gzipped" % (dst, src))
                else:
                    self.assertEqual(sha256(path), sha256(src), "%s is not the bytes of %s" % (dst, src))
        members = subprocess.run(["dpkg-deb", "--fsys-tarfile", self.deb], capture_output=True, check=True).stdout
        listing = subprocess.run(["tar", "-tvf", "-"], input=members, capture_output=True, check=True).stdout.decode()
        for src, dst, mode in self.rows:
            line = next(l for l in listing.splitlines() if l.endswith("." + packaged_path(dst)))
            self.assertEqual(line.split()[1], "root/root", line)
            self.assertEqual(stat.filemode(stat.S_IFREG | mode), line.split()[0], line)
        # The store's and the state's directories come with the package, root-only from the start.
        self.assertEqual(sorted(dst for dst, _ in self.directories), [STORE_DIR, STATE_DIR])
        for dst, mode in self.directories:
            line = next(l for l in listing.splitlines() if l.endswith("." + dst + "/"))
            self.assertEqual(line.split()[1], "root/root", line)
            self.assertEqual(stat.filemode(stat.S_IFDIR | mode), line.split()[0], line)
        conffiles = os.path.join(d, "DEBIAN", "conffiles")
        expected_conffiles = sorted(dst for _, dst, _ in self.rows if dst.startswith("/etc/"))
        listed = []
        if os.path.exists(conffiles):
            with open(conffiles) as f:
                listed = f.read().split()
        self.assertEqual(listed, expected_conffiles, "every /etc file, and only those, is a conffile")

    def test_depends_is_what_the_binaries_link_plus_pam_auth_update(self):
        d = self.extract()
        linked = set()
        for _, dst, _ in self.rows:
            path = d + packaged_path(dst)
            with open(path, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            needed = re.findall(
                r"NEEDED\s+(\S+)", subprocess.run(["objdump", "-p", path], capture_output=True, text=True).stdout
            )
            for lib in needed:
                real = subprocess.run(["gcc", "-print-file-name=" + lib], capture_output=True, text=True).stdout.strip()
                owner = subprocess.run(["dpkg", "-S", os.path.realpath(real)], capture_output=True, text=True)
                if owner.returncode != 0:  # usrmerge: dpkg knows the /lib spelling
                    owner = subprocess.run(
                        ["dpkg", "-S", os.path.realpath(real).replace("/usr/lib/", "/lib/", 1)],
                        capture_output=True,
                        text=True,
                    )
                self.assertEqual(owner.returncode, 0, "no package owns %s (%s)" % (lib, real))
                linked.add(owner.stdout.split(":")[0])
        depends = {re.split(r"[ (]", dep.strip())[0] for dep in self.field("Depends").split(",")}
        self.assertEqual(depends, linked | {"libpam-runtime"})
        self.assertTrue({"libc6", "libpam0g", "libcrypt1"} <= depends)

    def test_recommends_the_tpm2_tss_libraries_the_helper_loads(self):
        """The helper dlopens tpm2-tss for TPM mode (it links none of it): the package recommends the packages
        holding those sonames instead of depending on them."""
        recommends = [re.split(r"[ (]", r.strip())[0] for r in self.field("Recommends").split(",")]
        for soname, prefix in (
            ("libtss2-esys.so.0", "libtss2-esys"),
            ("libtss2-sys.so.1", "libtss2-sys"),
            ("libtss2-rc.so.0", "libtss2-rc"),
        ):
            with self.subTest(soname=soname):
                self.assertEqual(len([r for r in recommends if r.startswith(prefix)]), 1, recommends)
        depends = self.field("Depends")
        self.assertNotIn("libtss2", depends)

    def test_lintian_reports_nothing_beyond_the_documented_overrides(self):
        debs.assert_lintian_clean(self, self.deb, "error,warning")
        with open(os.path.join(ROOT, "debian", "lintian-overrides")) as f:
            lines = [l.rstrip("\n") for l in f]
        for i, line in enumerate(lines):
            if line.strip() and not line.startswith("#"):
                self.assertTrue(
                    i > 0 and lines[i - 1].startswith("#") and len(lines[i - 1]) > 10,
                    "override without a reason on the line above: %s" % line,
                )

    def test_a_second_build_is_the_same_bytes(self):
        """The version+1 build was made later: its files (data.tar) are the same bytes, its control differs only in Version."""
        self.assertNotEqual(self.newer, self.deb)
        members = {}
        for deb in (self.deb, self.newer):
            d = tempfile.mkdtemp(prefix="pp-deb-ar.")
            self.addCleanup(shutil.rmtree, d, ignore_errors=True)
            subprocess.run(["ar", "x", deb], cwd=d, check=True)
            names = sorted(os.listdir(d))
            members[deb] = {}
            for name in names:
                with open(os.path.join(d, name), "rb") as f:
                    members[deb][name] = f.read()
        old, new = members[self.deb], members[self.newer]
        self.assertEqual(sorted(old), sorted(new))
        data = next(name for name in old if name.startswith("data.tar"))
        self.assertEqual(hashlib.sha256(old[data]).hexdigest(), hashlib.sha256(new[data]).hexdigest())
        control = {}
        for deb in (self.deb, self.newer):
            d = tempfile.mkdtemp(prefix="pp-deb-e.")
            self.addCleanup(shutil.rmtree, d, ignore_errors=True)
            subprocess.run(["dpkg-deb", "-e", deb, d], check=True)
            control[deb] = {}
            for name in sorted(os.listdir(d)):
                with open(os.path.join(d, name)) as f:
                    control[deb][name] = f.read()
        version = self.field("Version")
        control[self.newer]["control"] = control[self.newer]["control"].replace(
            "Version: %s+1\n" % version, "Version: %s\n" % version
        )
        self.assertEqual(control[self.newer], control[self.deb])

    def test_readme_lists_exactly_the_package_files(self):
        self.assertEqual(readme_package_files(), self.expected_files())

    # -- installed on a system ------------------------------------------------

    def test_life_install_enable_sudo_upgrade_remove_purge(self):
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)

        # Install the way an administrator would.
        ns.share(os.path.dirname(self.deb))
        r = ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.deb], timeout=300)
        self.assertIn("Setting up %s" % PACKAGE, r.stdout)
        installed = [
            p
            for p in ns.run(["dpkg", "-L", PACKAGE]).stdout.split()
            if os.path.isfile(ns.path(p)) and not os.path.islink(ns.path(p))
        ]
        self.assertEqual(sorted(installed), readme_package_files(), "dpkg -L and docs/reference.md disagree")
        for src, dst, mode in self.rows:
            st = os.stat(ns.path(packaged_path(dst)))
            self.assertEqual((st.st_mode & 0o7777, st.st_uid, st.st_gid), (mode, 0, 0), dst)
        for dst, mode in self.directories:
            st = os.stat(ns.path(dst))
            self.assertEqual((st.st_mode & 0o7777, st.st_uid, st.st_gid), (mode, 0, 0), dst)
        module = next(dst for _, dst, _ in self.rows if dst.endswith("/security/pam_pattern.so"))
        self.assertEqual(sha256(ns.path(module)), sha256(os.path.join(BUILD, "pam_pattern.so")))

        # Listed, not enabled.
        with open(ns.path("/var/lib/pam/seen")) as f:
            self.assertIn("pattern", f.read().split(), "pam-auth-update has not registered the profile")
        self.assertNotIn("pattern", self.enabled_profiles(ns))
        self.assertEqual(self.pam_d_lines(ns), [])

        # Users: one enrolled, one not; both may sudo with their password.
        for user, password in PASSWORDS.items():
            ns.run(["useradd", "-M", "-d", "/nonexistent", "-s", "/bin/sh", user])
            ns.run(["chpasswd"], input="%s:%s\n" % (user, password))
        ns.sh(
            "printf '%%s\\n' 'Defaults:%s,%s !lecture, passwd_tries=1' '%s,%s ALL=(root) /usr/bin/id' > %s "
            "&& chmod 0440 %s && visudo -cf %s"
            % (ENROLLED, OTHER, ENROLLED, OTHER, SUDOERS_DROPIN, SUDOERS_DROPIN, SUDOERS_DROPIN)
        )
        ns.run(["/usr/bin/patternctl", "set", ENROLLED], input="%s\n%s\n" % (PATTERN, PATTERN))
        self.assertFalse(self.sudo(ns, ENROLLED, PATTERN).ok, "installing alone must not enable the pattern")

        # Enabled: the pattern works for the enrolled user, nothing changes for the other.
        ns.run(["pam-auth-update", "--enable", "pattern"])
        self.assertIn("pattern", self.enabled_profiles(ns))
        right = self.sudo(ns, ENROLLED, PATTERN)
        self.assertTrue(right.ok, right)
        self.assertIn("Pattern", right.prompts)
        fallback = self.sudo(ns, ENROLLED, "", PASSWORDS[ENROLLED])
        self.assertTrue(fallback.ok, "an empty pattern must fall through to the password: %s" % fallback)
        other = self.sudo(ns, OTHER, PASSWORDS[OTHER])
        self.assertTrue(other.ok, other)
        self.assertNotIn("Pattern", other.prompts, "a user without a pattern must not be asked for one")
        self.assertFalse(self.sudo(ns, OTHER, PATTERN).ok, "another user's pattern is not a password")
        self.assertFalse(self.sudo(ns, ENROLLED, WRONG).ok)  # counted: the state now holds a failure

        # Reinstall and upgrade keep every pattern and its throttle state, byte for byte, and the profile.
        kept = self.store_and_state(ns)
        self.assertIn("patterns", " ".join(kept["store"]), kept)
        self.assertTrue(kept["state"], "the wrong pattern left no throttle state")
        # An administrator's change to a conffile survives the reinstall and the upgrade.
        conffiles = [dst for _, dst, _ in self.rows if dst.startswith("/etc/")]
        for dst in conffiles:
            with open(ns.path(dst), "a") as f:
                f.write("# changed by the administrator\n")
        # dpkg-statoverride works on the setuid files: a reinstall keeps the admin's mode, and
        # without the override the upgrade brings the package's mode back.
        setuid = [dst for _, dst, mode in self.rows if mode & stat.S_ISUID]
        for dst in setuid:
            ns.run(["dpkg-statoverride", "--update", "--add", "root", "root", "0755", dst])
        ns.run(["dpkg", "-i", self.deb])
        self.assertEqual(self.store_and_state(ns), kept, "reinstalling changed the store or the state")
        for dst in setuid:
            self.assertEqual(os.stat(ns.path(dst)).st_mode & 0o7777, 0o755, "statoverride lost: " + dst)
            ns.run(["dpkg-statoverride", "--remove", dst])
        ns.run(["dpkg", "-i", self.newer])
        for _, dst, mode in self.rows:
            self.assertEqual(os.stat(ns.path(packaged_path(dst))).st_mode & 0o7777, mode, dst)
        self.assertEqual(ns.run(["dpkg-query", "-W", "-f", "${Version}", PACKAGE]).stdout, self.field("Version") + "+1")
        self.assertEqual(self.store_and_state(ns), kept, "upgrading changed the store or the state")
        self.assertIn("pattern", self.enabled_profiles(ns), "an upgrade must keep the profile enabled")
        for dst in conffiles:
            with open(ns.path(dst)) as f:
                self.assertTrue(f.read().endswith("# changed by the administrator\n"), "upgrade replaced " + dst)
        self.assertIn("failures: 1", ns.run(["/usr/bin/patternctl", "status", ENROLLED]).stdout)
        self.assertTrue(self.sudo(ns, ENROLLED, PATTERN).ok, "the pattern stopped working after the upgrade")
        kept = self.store_and_state(ns)

        # A hand-written pam_pattern line blocks removal: the module stays under it.
        with open(ns.path("/etc/pam.d/ppdeb-hand"), "w") as f:
            f.write("auth sufficient pam_pattern.so nullok\n")
        refused = ns.run(["dpkg", "-r", PACKAGE], check=False)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("/etc/pam.d/ppdeb-hand", refused.stderr)
        self.assertTrue(os.path.exists(ns.path(module)), "the module went while a PAM file names it")
        self.assertIn("pattern", self.enabled_profiles(ns), "a refused removal must leave the profile enabled")
        os.unlink(ns.path("/etc/pam.d/ppdeb-hand"))

        # prerm itself takes the profile out, while the module is still there.
        ns.run(["pam-auth-update", "--enable", "pattern"])
        self.assertNotEqual(self.pam_d_lines(ns), [])
        ns.run(["/var/lib/dpkg/info/%s.prerm" % PACKAGE, "remove"])
        self.assertEqual(self.pam_d_lines(ns), [])
        self.assertTrue(os.path.exists(ns.path(module)))

        # Remove: no pam_pattern line anywhere in /etc/pam.d, module gone, patterns and state kept.
        ns.run(["pam-auth-update", "--enable", "pattern"])
        ns.run(["dpkg", "-r", PACKAGE])
        self.assertEqual(self.pam_d_lines(ns), [])
        self.assertFalse(os.path.exists(ns.path(module)))
        self.assertEqual(self.store_and_state(ns), kept, "remove changed the store or the state")
        for dst in conffiles:
            self.assertTrue(os.path.exists(ns.path(dst)), "remove (not purge) must keep the conffile " + dst)
        right = self.sudo(ns, OTHER, PASSWORDS[OTHER])
        self.assertTrue(right.ok, "sudo broke after the remove: %s" % right)

        # Purge: the patterns and the state go; nothing the package made is left.
        ns.run(["dpkg", "-P", PACKAGE])
        self.assertFalse(os.path.exists(ns.path(STORE_DIR)))
        self.assertFalse(os.path.exists(ns.path(STATE_DIR)))
        for dst in conffiles:
            self.assertFalse(os.path.exists(ns.path(dst)), "purge left " + dst)
        self.assertNotEqual(ns.run(["dpkg", "-s", PACKAGE], check=False).returncode, 0)
        self.assertEqual(self.leftovers(ns), [])

    def test_remove_and_purge_leave_the_shared_module_directory_without_a_warning(self):
        """The PAM module directory is libpam-modules' (on Debian 12 dpkg knows it by its /lib spelling):
        removing the package takes its module out of it, says nothing about it, and leaves the others."""
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.deb], timeout=300)
        module = next(dst for _, dst, _ in self.rows if dst.endswith("/security/pam_pattern.so"))
        directory = os.path.dirname(module)
        others = sorted(set(os.listdir(ns.path(directory))) - {"pam_pattern.so"})
        self.assertIn("pam_unix.so", others)
        for step in (["dpkg", "-r", PACKAGE], ["dpkg", "-P", PACKAGE]):
            said = ns.run(step)
            self.assertNotIn("not empty so not removed", said.stdout + said.stderr, step)
            self.assertNotIn("warning", (said.stdout + said.stderr).lower(), step)
        self.assertEqual(sorted(os.listdir(ns.path(directory))), others)

    def test_purge_deletes_the_tpm_indexes_of_its_patterns(self):
        """A pattern set in TPM mode (through the installed helper, on swtpm): after `dpkg -P` no NV index of
        pam_pattern's range is left in the TPM, the session key's included."""
        tpm, ns = self.in_tpm_mode()
        self.assertEqual(len(self.tpm_indexes(tpm)), 2, "the pattern's index and the session key")
        ns.run(["dpkg", "-r", PACKAGE])
        self.assertEqual(len(self.tpm_indexes(tpm)), 2, "remove (not purge) keeps the patterns, in the TPM too")
        purge = ns.run(["dpkg", "-P", PACKAGE])
        self.assertEqual(self.tpm_indexes(tpm), [], purge.stdout + purge.stderr)
        self.assertFalse(os.path.exists(ns.path(STORE_DIR)))

    def in_tpm_mode(self):
        """A software TPM, and a namespace with the package installed in TPM mode on it and ENROLLED's pattern
        set there (through the installed helper); both closed at cleanup."""
        require_swtpm()
        tpm = SoftwareTPM()
        self.addCleanup(tpm.close)
        os.chmod(tpm.directory, 0o755)
        ns = self.NAMESPACE()
        self.addCleanup(ns.close)
        ns.share(tpm.directory)
        ns.share(os.path.dirname(self.deb))
        ns.run(["apt-get", "install", "-y", "--no-install-recommends", self.deb], timeout=300)
        ns.sh("printf 'tpm = yes\\ntpm_tcti = %s\\n' > /etc/security/pam_pattern.conf" % tpm.tcti)
        ns.run(["useradd", "-M", "-d", "/nonexistent", "-s", "/bin/sh", ENROLLED])
        ns.run(["/usr/bin/patternctl", "set", ENROLLED], input="%s\n%s\n" % (PATTERN, PATTERN))
        with open(ns.path(STORE_DIR + "/patterns")) as f:
            self.assertIn("$tpm2$", f.read())
        return tpm, ns

    @staticmethod
    def tpm_indexes(tpm):
        """The NV indexes of pam_pattern's range defined in the TPM."""
        return [h for h in tpm.defined_indexes() if 0x01A50000 <= h <= 0x01A5FFFF]

    # -- helpers for the life test ---------------------------------------------

    @staticmethod
    def enabled_profiles(ns):
        r = ns.sh("echo get libpam-runtime/profiles | debconf-communicate", check=False)
        return r.stdout.split(None, 1)[1].replace(",", " ").split() if r.stdout.startswith("0 ") else []

    @staticmethod
    def pam_d_lines(ns):
        r = ns.sh("grep -r -n -E '^[[:space:]]*[^#[:space:]].*pam_pattern' /etc/pam.d || true")
        return r.stdout.splitlines()

    @staticmethod
    def store_and_state(ns):
        return {"store": tree(ns.path(STORE_DIR)), "state": tree(ns.path(STATE_DIR))}

    class SudoResult:
        def __init__(self, r):
            self.ok = r.returncode == 0 and r.stdout.strip() == "root"
            self.prompts = r.stderr
            self.raw = (r.returncode, r.stdout, r.stderr)

        def __repr__(self):
            return "<sudo %r>" % (self.raw,)

    def sudo(self, ns, user, *answers):
        """Real sudo as `user`, each answer typed at one prompt; ok = it ran `id -un` as root."""
        typed = "".join(a + "\n" for a in answers)
        r = ns.run(
            ["su", "-s", "/bin/sh", user, "-c", "sudo -S -k /usr/bin/id -un"], input=typed, check=False, timeout=60
        )
        return self.SudoResult(r)

    def leftovers(self, ns):
        return leftovers(ns)


if __name__ == "__main__":
    unittest.main()
