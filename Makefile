# pam_pattern - see README.md. `make demo` tries it, `make test` proves it.
SHELL        := /bin/bash
SWIFT        ?= swift
BUILD        := build
SCRATCH      ?= .build
PYTHON       ?= /usr/bin/python3
MULTIARCH    := $(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
PREFIX       ?= /usr/local
DESTDIR      ?=
# PAM looks for modules in the multiarch security directory, not under PREFIX.
PAMDIR       ?= /lib/$(MULTIARCH)/security
SBINDIR      ?= $(PREFIX)/sbin
MANDIR       ?= $(PREFIX)/share/man
# The setuid helper's path is compiled into the module (HelperRequest.installedPath), so it is not under PREFIX.
HELPER       := /usr/sbin/pam_pattern_helper
PAMCONFIGDIR ?= /usr/share/pam-configs
SECURITYDIR  ?= /etc/security
# gettext catalogues: where glibc looks by default (the module has no other way to find them).
LOCALEDIR    ?= /usr/share/locale
# Languages with a complete translation in po/.
LANGUAGES    := zh_CN

# Debian packages the build and the tests need.
DEB_PACKAGES := libpam0g-dev libcrypt-dev sudo expect tmux strace pamtester \
                groff-base util-linux login passwd python3 libpam-runtime \
                libtss2-dev swtpm swtpm-tools tpm2-tools \
                xvfb i3lock xdotool gettext locales

# no $$ORIGIN runpath: the module and the CLI load nothing from beside themselves
SWIFT_RELEASE := $(SWIFT) build -c release --scratch-path $(SCRATCH) --disable-local-rpath

.PHONY: all build deps pot test test-swift test-integration test-fuzz demo install uninstall print-installed-files bench fuzz clean

all: build

# Installs missing Debian packages when run as root; otherwise says what is missing.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing Debian packages:$$missing (run as root, or: sudo apt-get install$$missing)"; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT_RELEASE) --product pam_pattern
	$(SWIFT_RELEASE) --product pam_pattern_helper
	# static Swift stdlib: the installed CLI must not need the toolchain at /opt/swift
	$(SWIFT_RELEASE) --product patternctl --static-swift-stdlib
	@mkdir -p $(BUILD)
	cp $(SCRATCH)/release/libpam_pattern.so $(BUILD)/pam_pattern.so
	strip --strip-unneeded $(BUILD)/pam_pattern.so
	cp $(SCRATCH)/release/pam_pattern_helper $(BUILD)/pam_pattern_helper
	strip $(BUILD)/pam_pattern_helper
	cp $(SCRATCH)/release/patternctl $(BUILD)/patternctl
	strip $(BUILD)/patternctl
	gcc -Wall -Wextra -O2 -o $(BUILD)/pam-try demo/pam_try.c -lpam -lpam_misc
	# the TPM layer's test driver (Tests/TPMTests), never installed
	$(SWIFT_RELEASE) --product tpm-driver
	cp $(SCRATCH)/release/tpm-driver $(BUILD)/tpm-driver
	# message catalogues: msgfmt -c checks every translation's %s against its msgid
	for lang in $(LANGUAGES); do \
	  mkdir -p $(BUILD)/locale/$$lang/LC_MESSAGES && \
	  msgfmt -c -o $(BUILD)/locale/$$lang/LC_MESSAGES/pam_pattern.mo po/$$lang.po || exit 1; \
	done

# Regenerates po/pam_pattern.pot from the sources (Tests/LocaleTests checks it is current).
pot:
	$(PYTHON) po/extract-messages.py . > po/pam_pattern.pot

test: build test-swift test-integration test-fuzz

test-swift:
	$(SWIFT) test --scratch-path $(SCRATCH)
	# every pattern's drawing read back; optimised (a debug build takes minutes)
	$(SWIFT_RELEASE) --product drawing-roundtrip
	$(SCRATCH)/release/drawing-roundtrip

test-integration: build
	@failed=""; for d in Tests/*/; do \
	  if ls $$d/test_*.py >/dev/null 2>&1; then \
	    echo "== $$d"; \
	    PAM_PATTERN_BUILD=$(CURDIR)/$(BUILD) PAM_PATTERN_ROOT=$(CURDIR) \
	      $(PYTHON) -m unittest discover -s $$d -p 'test_*.py' -v || failed="$$failed $$d"; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "FAILED integration suites:$$failed"; exit 1; fi

# Try it: a demo pattern in a private temporary store, a real PAM prompt.
demo: build
	@demo/run-demo.sh $(CURDIR)/$(BUILD)

# The documented file list (README, "Files"). Under /etc only the commented default
# pam_pattern.conf, and only when none is there (a conffile: an admin's file is never replaced).
INSTALLED_FILES = $(PAMDIR)/pam_pattern.so \
                  $(HELPER) \
                  $(SBINDIR)/patternctl \
                  $(MANDIR)/man8/pam_pattern.8 \
                  $(MANDIR)/man8/patternctl.8 \
                  $(MANDIR)/man5/pam_pattern.conf.5 \
                  $(SECURITYDIR)/pam_pattern.conf \
                  $(PREFIX)/share/doc/pam_pattern/examples/pam_pattern.conf \
                  $(MANDIR)/man8/pam_pattern_helper.8 \
                  $(PAMCONFIGDIR)/pattern \
                  $(foreach lang,$(LANGUAGES),$(LOCALEDIR)/$(lang)/LC_MESSAGES/pam_pattern.mo) \
                  $(PREFIX)/share/doc/pam_pattern/examples/pattern-auth \
                  $(PREFIX)/share/doc/pam_pattern/examples/sudo \
                  $(PREFIX)/share/doc/pam_pattern/examples/sudo-single-prompt \
                  $(PREFIX)/share/doc/pam_pattern/examples/su \
                  $(PREFIX)/share/doc/pam_pattern/examples/login \
                  $(PREFIX)/share/doc/pam_pattern/examples/i3lock \
                  $(PREFIX)/share/doc/pam_pattern/examples/swaylock \
                  $(PREFIX)/share/doc/pam_pattern/examples/xscreensaver

install:
	@test -f $(BUILD)/pam_pattern.so || { echo "run 'make build' first"; exit 1; }
	install -D -m 0644 $(BUILD)/pam_pattern.so $(DESTDIR)$(PAMDIR)/pam_pattern.so
	# setuid root, like unix_chkpwd (owner root when installing as root; dpkg-statoverride can change it)
	install -D -m 4755 $(BUILD)/pam_pattern_helper $(DESTDIR)$(HELPER)
	install -D -m 0755 $(BUILD)/patternctl $(DESTDIR)$(SBINDIR)/patternctl
	install -D -m 0644 man/pam_pattern.8 $(DESTDIR)$(MANDIR)/man8/pam_pattern.8
	install -D -m 0644 man/patternctl.8 $(DESTDIR)$(MANDIR)/man8/patternctl.8
	install -D -m 0644 man/pam_pattern.conf.5 $(DESTDIR)$(MANDIR)/man5/pam_pattern.conf.5
	install -D -m 0644 security/pam_pattern.conf $(DESTDIR)$(PREFIX)/share/doc/pam_pattern/examples/pam_pattern.conf
	@if [ -e $(DESTDIR)$(SECURITYDIR)/pam_pattern.conf ] || [ -L $(DESTDIR)$(SECURITYDIR)/pam_pattern.conf ]; then \
	  echo "kept the existing $(SECURITYDIR)/pam_pattern.conf (the default is in share/doc/pam_pattern/examples)"; \
	else \
	  install -D -m 0644 security/pam_pattern.conf $(DESTDIR)$(SECURITYDIR)/pam_pattern.conf || exit 1; \
	fi
	install -D -m 0644 man/pam_pattern_helper.8 $(DESTDIR)$(MANDIR)/man8/pam_pattern_helper.8
	install -D -m 0644 pam-configs/pattern $(DESTDIR)$(PAMCONFIGDIR)/pattern
	for lang in $(LANGUAGES); do \
	  install -D -m 0644 $(BUILD)/locale/$$lang/LC_MESSAGES/pam_pattern.mo \
	    $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/pam_pattern.mo || exit 1; \
	done
	for f in pattern-auth sudo sudo-single-prompt su login i3lock swaylock xscreensaver; do \
	  install -D -m 0644 pam.d/$$f $(DESTDIR)$(PREFIX)/share/doc/pam_pattern/examples/$$f || exit 1; \
	done
	@echo "installed; nothing is enabled. See README.md, 'Enabling it for sudo'."

uninstall:
	@# the policy file goes only while it is still the shipped default
	@if cmp -s security/pam_pattern.conf $(DESTDIR)$(SECURITYDIR)/pam_pattern.conf; then \
	  rm -f $(DESTDIR)$(SECURITYDIR)/pam_pattern.conf; \
	elif [ -e $(DESTDIR)$(SECURITYDIR)/pam_pattern.conf ]; then \
	  echo "kept $(SECURITYDIR)/pam_pattern.conf: it was changed (delete it by hand)"; \
	fi
	rm -f $(addprefix $(DESTDIR),$(filter-out $(SECURITYDIR)/pam_pattern.conf,$(INSTALLED_FILES)))
	-rmdir $(DESTDIR)$(PREFIX)/share/doc/pam_pattern/examples $(DESTDIR)$(PREFIX)/share/doc/pam_pattern 2>/dev/null
	@echo "removed; patterns in /etc/security/pam_pattern and /var/lib/pam_pattern are kept (delete them by hand)."

# Prints the installed file list (the install test compares against it).
print-installed-files:
	@for f in $(INSTALLED_FILES); do echo "$$f"; done

# Benchmarks against pam_unix in the same run (README, "Benchmarks").
bench: build
	@bench/run-bench.sh $(CURDIR)/$(BUILD)

# libFuzzer + ASan (fuzz/run.sh, fuzz/README.md), in their own scratch path: FUZZ_SECONDS per target.
FUZZ_SECONDS      ?= 300
FUZZ_TEST_SECONDS ?= 25
FUZZ_SCRATCH      ?= .build-fuzz

fuzz: build
	SWIFT=$(SWIFT) fuzz/run.sh --seconds $(FUZZ_SECONDS) --scratch $(FUZZ_SCRATCH) --module $(CURDIR)/$(BUILD)/pam_pattern.so

# The bounded pass of `make test`: replays the committed corpus, then fuzzes each target briefly.
test-fuzz: build
	SWIFT=$(SWIFT) fuzz/run.sh --seconds $(FUZZ_TEST_SECONDS) --scratch $(FUZZ_SCRATCH) --module $(CURDIR)/$(BUILD)/pam_pattern.so

clean:
	rm -rf $(BUILD) $(SCRATCH) $(FUZZ_SCRATCH)
