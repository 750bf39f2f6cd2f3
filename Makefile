# A thin layer over the CMake presets. `make demo` and `make test` are the two commands a
# new user needs; `make bench` runs the benchmarks; `make h200` builds the static sm_90
# binaries that run on the GPU machine. `make test` also builds the Python extension and runs
# its pytest suite (ctest tests python_*, one per file) with the Python packages it needs installed from
# PyPI into a virtual environment under the build folder.

PRESET   ?= default
BUILD    := $(if $(filter h200,$(PRESET)),build-h200,build)
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PKGS := cmake g++ make zlib1g-dev libboost-program-options-dev libgtest-dev python3-dev python3-venv
PYENV    := $(BUILD)/pyenv
# What configuring and building the extension needs (the CMake build takes nanobind alone;
# scikit-build-core is pip install .'s), then what its tests need, installed while the C++ compiles.
PY_BUILD_PKGS := nanobind
PY_TEST_PKGS  := numpy scipy networkx pytest pandas pyarrow pandana shapely matplotlib osmium dask distributed zarr
DEMO_GRAPH ?= datasets/USA-road-d.NY.gr.gz
# The GPU test binaries are built where an NVIDIA device is (docs/testing.md); elsewhere each is a
# skipped ctest entry. GPU_TESTS=ON or OFF overrides.
GPU_TESTS ?= $(if $(wildcard /dev/nvidiactl /dev/dxg /proc/driver/nvidia/version),ON,OFF)

.PHONY: all deps configure build demo test pyenv pyenv-build bench h200 clean wheel wheel-test

all: build

# Installs the Debian packages that are missing when we are root; otherwise prints the exact line.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) || exit 1; \
	  else \
	    echo "Missing packages. Run:  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi; \
	command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || \
	  echo "note: no CUDA toolkit (nvcc) found; building the CPU parts only. Install the CUDA toolkit (13.0 is what the project is tested with) for the GPU solvers."

configure: deps
	@PATH="$$PATH:/usr/local/cuda/bin" cmake --preset $(PRESET) $(PY_CONFIG) >/dev/null

build: configure
	@PATH="$$PATH:/usr/local/cuda/bin" cmake --build $(BUILD) -j $(JOBS)

# The demo builds only the deltasplit program (the library and the CLI), not the tests and
# benchmarks: a first build on a small machine gets to a result in minutes.
demo: configure
	@PATH="$$PATH:/usr/local/cuda/bin" cmake --build $(BUILD) -j $(JOBS) --target deltasplit_cli
	./$(BUILD)/deltasplit sssp $(DEMO_GRAPH) --source 1 --validate

# The Python extension is a shared object: the static h200 preset builds without it. The test
# packages install (pip, mostly waiting on the network) while the C++ compiles; ctest waits for both.
# The benchmarks are not built here (`make bench` and `make h200` build them): a test needs none.
test: $(if $(filter h200,$(PRESET)),,pyenv-build)
ifeq ($(filter h200,$(PRESET)),)
	@($(MAKE) -s pyenv > $(PYENV)/install.log 2>&1; echo $$? > $(PYENV)/install.status) & \
	$(MAKE) build PY_CONFIG="-DDELTASPLIT_BUILD_BENCH=OFF -DDELTASPLIT_GPU_TESTS=$(GPU_TESTS) -DDELTASPLIT_BUILD_PYTHON=ON -DPython_EXECUTABLE=$(CURDIR)/$(PYENV)/bin/python"; \
	built=$$?; wait; \
	if [ "$$(cat $(PYENV)/install.status)" != 0 ]; then cat $(PYENV)/install.log; exit 1; fi; \
	exit $$built
else
	$(MAKE) build
endif
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@if [ -x $(BUILD)/gpu_report ]; then ./$(BUILD)/gpu_report; fi

pyenv: $(PYENV)/.installed
pyenv-build: $(PYENV)/.build-installed

# Made again when this file changes, so a new package reaches an existing build tree.
$(PYENV)/.build-installed: Makefile | deps
	python3 -m venv $(PYENV)
	$(PYENV)/bin/python -m pip install -q --disable-pip-version-check $(PY_BUILD_PKGS)
	touch $@

$(PYENV)/.installed: $(PYENV)/.build-installed
	$(PYENV)/bin/python -m pip install -q --disable-pip-version-check $(PY_TEST_PKGS)
	touch $@

bench:
	$(MAKE) build PY_CONFIG=-DDELTASPLIT_BUILD_BENCH=ON
	./bench/run_all.sh $(BUILD)

h200:
	$(MAKE) build PRESET=h200 PY_CONFIG=-DDELTASPLIT_BUILD_BENCH=ON

# A wheel (docs/install.md): `make wheel` builds one and repairs it into a manylinux wheel in
# WHEEL_DIR, for WHEEL_ARCHS cpu (no CUDA), native (this machine's GPU, sm_90 without one), dist
# (sm_80, sm_90, sm_100 and PTX) or a CMAKE_CUDA_ARCHITECTURES list. `make wheel-test` installs the
# newest wheel there into a fresh venv without the CUDA toolkit and runs the Python suite in it.
# Neither is part of `make test`: a wheel takes minutes to build.
WHEEL_ARCHS ?= native
WHEEL_DIR   ?= dist
WHEEL       ?= $(lastword $(sort $(wildcard $(WHEEL_DIR)/deltasplit-*.whl)))

wheel:
	JOBS=$(JOBS) python/tools/build_wheel.sh "$(WHEEL_ARCHS)" $(WHEEL_DIR)

wheel-test:
	@test -n "$(WHEEL)" || { echo "no wheel in $(WHEEL_DIR)/: run make wheel first"; exit 1; }
	python/tools/test_wheel.sh $(WHEEL)

clean:
	rm -rf build build-h200
