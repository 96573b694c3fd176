# make demo  — the main job (creates .venv and installs what it needs)
# make test  — lint + the test suite
# make bench — speed figures: rules core, engine, envs, trainer, arena
# make docs  — the documentation site into build/site (mkdocs.yml, docs/)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.installed-train
# torch: the CPU build on this machine's disk; a plain `torch` would pull a multi-GB CUDA build.
TORCH_CPU := torch==2.13.0

.PHONY: demo test bench lint install install-train install-agilerl browser compiled docs clean

# An editable install (pip install -e .): the package imports as cnmahjong from this checkout.
# Its extensions are built below, in place, by the build backend's own build_ext. link_tree puts
# the package on the path as a plain folder of links (build/link-tree), which static tools and
# IDEs follow into envs/, agents/, training/ (setuptools' editable import hook they cannot read).
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	CNMAHJONG_NO_EXTENSIONS=1 $(PY) -m pip install -q -e ".[dev,fast]"
	$(PY) setup.py -q link_tree
	touch $@

# The compiled hot path (setup.py): Cython builds the engine modules unchanged and the cs-v0
# twin beside their sources, again whenever a source changes (build_ext's timestamps decide
# what is stale). Without a C compiler the package stays pure Python (setup.py says so).
HOT_SOURCES := $(wildcard envs/*.py envs/*/*.py envs/*/*.pyx envs/*/*.pxd) setup.py
build/.compiled: $(HOT_SOURCES) $(STAMP)
	$(PY) setup.py -q build_ext --inplace
	@touch $@

compiled: build/.compiled

install: $(STAMP) compiled

$(TRAIN_STAMP): $(STAMP)
	$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install -q $(TORCH_CPU)
	CNMAHJONG_NO_EXTENSIONS=1 $(PY) -m pip install -q -e ".[dev,train,rllib,tianshou,torchrl,supersuit]"
	touch $@

install-train: $(TRAIN_STAMP)

# The documentation site: MkDocs with Material and mkdocstrings (pyproject's docs extra). The build
# fetches nothing (no fonts, no inventories); -P keeps the checkout's cnmahjong/ folder off sys.path,
# so the API reference finds the subpackages through the install's mapping (see mkdocs.yml).
DOCS_STAMP := $(VENV)/.installed-docs
$(DOCS_STAMP): $(STAMP)
	CNMAHJONG_NO_EXTENSIONS=1 $(PY) -m pip install -q -e ".[docs]"
	touch $@

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -P -m mkdocs build --strict

# AgileRL 2.58 pins pettingzoo 1.26.1 and tensordict 0.13 (TorchRL in .venv needs 0.14): its own venv
# for examples/agilerl_dqn.py and its test. `import agilerl.algorithms` also needs peft and
# transformers, which AgileRL lists only under its LLM extras.
AGILERL_VENV  := .venv-agilerl
AGILERL_STAMP := $(AGILERL_VENV)/.installed
AGILERL := agilerl==2.58.0 peft==0.21.0 transformers==5.14.1

$(AGILERL_STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(AGILERL_VENV)
	$(AGILERL_VENV)/bin/python -m pip install -q $(TORCH_CPU)
	$(AGILERL_VENV)/bin/python -m pip install -q $(AGILERL)
	CNMAHJONG_NO_EXTENSIONS=1 $(AGILERL_VENV)/bin/python -m pip install -q -e .
	touch $@

install-agilerl: $(AGILERL_STAMP)

demo: $(TRAIN_STAMP) compiled
	$(PY) -m cnmahjong.training.demo

lint: $(STAMP)
	$(PY) -m ruff check cnmahjong envs agents training tests examples setup.py

# The browser tests drive Debian's Chromium through its driver (installed here when missing).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

# The tests cover training, checkpoints, RLlib and Tianshou too, so they need those extras; and the
# documentation site (tests/test_docs.py builds it strictly and runs every example on its pages).
test: $(TRAIN_STAMP) compiled lint browser $(AGILERL_STAMP) $(DOCS_STAMP)
	$(PY) -m pytest

# The wheel as users get it (pip wheel: the build backend compiles the hot path), installed in a
# fresh venv: make bench measures VectorEnv there too.
WHEEL_VENV := build/wheel-venv
$(WHEEL_VENV)/.installed: $(HOT_SOURCES) pyproject.toml $(STAMP)
	rm -rf build/dist $(WHEEL_VENV)
	$(PY) -m pip wheel -q --no-deps -w build/dist .
	$(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/pip install -q build/dist/cnmahjong-*.whl
	touch $@

# RiichiEnv (pyproject's compare extra): make bench measures it beside VectorEnv, in the same rounds.
COMPARE_STAMP := $(VENV)/.installed-compare
$(COMPARE_STAMP): $(STAMP)
	CNMAHJONG_NO_EXTENSIONS=1 $(PY) -m pip install -q -e ".[compare]"
	touch $@

bench: $(TRAIN_STAMP) $(COMPARE_STAMP) compiled $(WHEEL_VENV)/.installed
	$(PY) -m cnmahjong.training.bench --trainer --wheel-python $(WHEEL_VENV)/bin/python

clean:
	find envs -name '*.so' -delete
	rm -rf $(VENV) $(AGILERL_VENV) build dist .pytest_cache .ruff_cache .hypothesis
