# The domino-api image: one image for the API, the one-shot migration and the sweeper worker.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The project is installed editable from /app: migrations/ and alembic.ini are found beside src/.
COPY pyproject.toml README.md alembic.ini ./
COPY src ./src
COPY migrations ./migrations
RUN pip install -e . \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin domino

USER domino
EXPOSE 8000

# Migrations run once per deploy (compose's `migrate` service), never in each replica.
CMD ["domino-api", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-migrate"]
