# The bot in a container: settings come from the environment (BOT_TOKEN, …, see .env.example);
# the SQLite database lives on the /app/data volume so tables survive a restart.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
RUN pip install . && useradd --create-home --uid 10001 mushka && mkdir -p /app/data \
    && chown mushka /app/data

USER mushka
VOLUME ["/app/data"]
ENV BOT_DATABASE=/app/data/bot.sqlite3 \
    BOT_LOCALES=/app/locales
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
