# The redactor as a service: docker build -t bertforge . && docker run -p 8000:8000 bertforge
FROM python:3.11-slim

# the CPU build of PyTorch (no CUDA libraries: a fraction of the size)
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir '.[pii,serve]' && useradd --create-home --uid 10001 bertforge

USER bertforge
EXPOSE 8000
# /health answers 200 once the bundled model is loaded
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
    CMD python -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=2).status != 200)"
CMD ["bertforge", "serve", "--host", "0.0.0.0", "--port", "8000"]
