# Every target creates .venv when missing and installs what it needs,
# so each works as the first command on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: demo test test-fast system-tools conformance bench screenshots lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/gateway-tui --demo

# Two workers: the machines have two cores, and the Pilot tests mostly wait on I/O.
# The whole suite also builds the wheel and runs it from a fresh venv (tests/test_packaging.py),
# checks the completion scripts in bash, zsh and fish, and drives `serve` in Chromium.
test: $(STAMP) system-tools
	$(BIN)/python -m pytest -q -n auto

# What those tests need from the system (Debian packages): installed when missing, as root
# (CI) or through sudo; otherwise make says what to install.
SYSTEM_TOOLS := zsh fish chromium
system-tools:
	@missing=""; for tool in $(SYSTEM_TOOLS); do \
		command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; \
		elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
		else echo "make test needs:$$missing (apt-get install -y$$missing, as root)"; exit 1; fi; \
		echo "installing:$$missing"; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# The quick loop while working: everything but the tests marked slow (snapshots, fuzzing,
# whole-suite runs). `make test` runs them all.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m "not slow"

# The suite against a gateway that is already running (README: "Your own gateway"):
#   make conformance GATEWAY_URL=http://host:8080 GATEWAY_API_KEY=...
# Exported, not written on the command line: make would echo the key.
export GATEWAY_URL GATEWAY_API_KEY
conformance: $(STAMP)
	GTUI_CONFORMANCE=1 $(BIN)/python -m pytest -q tests/real_gateway

bench: $(STAMP)
	$(BIN)/python -m bench

screenshots: $(STAMP)
	$(BIN)/python -m gateway_tui.screenshots screenshots

lint: $(STAMP)
	$(BIN)/lint-imports --no-cache
	$(BIN)/ruff check gateway_tui tests bench
	$(BIN)/ruff format --check gateway_tui tests bench

clean:
	rm -rf $(VENV)
