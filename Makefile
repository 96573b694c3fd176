# make demo  — the main job (creates .venv and installs what it needs)
# make test  — lint + the test suite
# make bench — speed figures: rules core, engine, envs, trainer, arena
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.installed-train
# torch: the CPU build on this machine's disk; a plain `torch` would pull a multi-GB CUDA build.
TORCH_CPU := torch==2.13.0

.PHONY: demo test bench lint install install-train browser compiled clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -e ".[dev,fast]"
	touch $@

# The compiled hot path (envs/hotpath.py): Cython builds the engine modules unchanged and the
# cs-v0 twin, again whenever a source changes. Without a C compiler the package stays pure Python
# (said here).
HOT_SOURCES := $(wildcard envs/core/*.py envs/changsha/*.py envs/changsha/*.pyx envs/hangzhou/*.py) \
               envs/vector.py envs/hotpath.py envs/compile.py
envs/_compiled.json: $(HOT_SOURCES) $(STAMP)
	$(PY) -m envs.compile || echo "*** compiled hot path not built: the engine runs as pure Python ***"

compiled: envs/_compiled.json

install: $(STAMP) compiled

$(TRAIN_STAMP): $(STAMP)
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q $(TORCH_CPU)
	$(PY) -m pip install -q -e ".[dev,train,rllib,tianshou]"
	touch $@

install-train: $(TRAIN_STAMP)

demo: $(TRAIN_STAMP) compiled
	$(PY) -m training.demo

lint: $(STAMP)
	$(PY) -m ruff check envs agents training tests

# The browser tests drive Debian's Chromium through its driver (installed here when missing).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

# The tests cover training, checkpoints, RLlib and Tianshou too, so they need those extras.
test: $(TRAIN_STAMP) compiled lint browser
	$(PY) -m pytest

bench: $(TRAIN_STAMP) compiled
	$(PY) -m training.bench --trainer

clean:
	-$(PY) -m envs.compile --clean
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
