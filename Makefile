# Two commands on a fresh machine; each installs what it needs on first use.
#   make demo   mask the personal data in the documents in examples/documents
#   make test   run the test suite
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench bench-redact clean

# no pip cache: on a fresh machine it only doubles the disk the install needs
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --no-cache-dir --upgrade pip
	# the CPU build of torch on local disk goes in first; the project's range accepts it
	$(PY) -m pip install --quiet --no-cache-dir torch==2.13.0
	$(PY) -m pip install --quiet --no-cache-dir -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/bertforge redact examples/documents/*.txt

# the tests that assert what a trained model outputs run twice more: with the kernels
# limited to AVX2 (as on a CPU without AVX-512), and in fp32 (as on one without bf16)
AVX2 := ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2 \
        FBGEMM_ENABLE_INSTRUCTIONS=AVX2

test: $(STAMP)
	$(PY) -m pytest -q
	$(AVX2) $(PY) -m pytest -q -m "model_output and not slow"
	$(PY) -m pytest -q -m "model_output and not slow" --precision fp32

bench: $(STAMP)
	$(PY) bench/encoder_speed.py

bench-redact: $(STAMP)
	$(PY) -m pip install --quiet --no-cache-dir -e '.[test,bench]'
	$(PY) bench/redact_speed.py

clean:
	rm -rf $(VENV) out build *.egg-info src/*.egg-info
