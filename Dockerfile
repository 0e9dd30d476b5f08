# The bot needs no compiler: every pinned runtime dependency ships a wheel for CPython 3.11.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/pyramid.sqlite3

RUN useradd --create-home --uid 10001 --user-group pyramid \
    && mkdir /data \
    && chown pyramid:pyramid /data

WORKDIR /app

# Dependencies first, so that a code change does not reinstall them.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY --chown=pyramid:pyramid . .

USER pyramid

# The SQLite database (and its WAL files) live here; a named volume keeps chips across upgrades.
VOLUME /data

CMD ["python", "bot.py"]
