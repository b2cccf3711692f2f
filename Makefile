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
PAMCONFIGDIR ?= /usr/share/pam-configs

# Debian packages the build and the tests need.
DEB_PACKAGES := libpam0g-dev libcrypt-dev sudo expect tmux strace pamtester \
                groff-base util-linux login passwd python3 libpam-runtime

SWIFT_RELEASE := $(SWIFT) build -c release --scratch-path $(SCRATCH)

.PHONY: all build deps test test-swift test-integration demo install uninstall bench fuzz clean

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
	$(SWIFT_RELEASE) --product patternctl
	@mkdir -p $(BUILD)
	cp $(SCRATCH)/release/libpam_pattern.so $(BUILD)/pam_pattern.so
	strip --strip-unneeded $(BUILD)/pam_pattern.so
	cp $(SCRATCH)/release/patternctl $(BUILD)/patternctl

test: build test-swift test-integration

test-swift:
	$(SWIFT) test --scratch-path $(SCRATCH)

test-integration: build
	@set -e; for d in Tests/*/; do \
	  if ls $$d/test_*.py >/dev/null 2>&1; then \
	    echo "== $$d"; \
	    PAM_PATTERN_BUILD=$(CURDIR)/$(BUILD) PAM_PATTERN_ROOT=$(CURDIR) $(PYTHON) -m unittest discover -s $$d -p 'test_*.py' -v; \
	  fi; \
	done

clean:
	rm -rf $(BUILD) $(SCRATCH)
