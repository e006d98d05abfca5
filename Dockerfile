# The bot in a container: settings come from the environment (BOT_TOKEN, …, see .env.example);
# the SQLite database lives on the /app/data volume so tables survive a restart.
# Two stages: the builder makes the wheel; the runtime stage installs only it (no sources, no
# build tools). Polling by default; BOT_WEBHOOK_URL (+ BOT_WEBHOOK_SECRET) switches to webhook
# mode on port 8080 (docker-compose.yml has both).

FROM python:3.11-slim AS builder
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
# bot/locales links here: the wheel carries the catalogues as the package's data
COPY locales ./locales
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY --from=builder /wheels /wheels
# the postgres and redis extras: the same image runs on SQLite or BOT_DATABASE=postgresql://…,
# one process or BOT_WORKERS with BOT_REDIS_URL
RUN pip install "$(echo /wheels/*.whl)[postgres,redis]" && rm -rf /wheels \
    && useradd --create-home --uid 10001 mushka && mkdir -p /app/data \
    && chown mushka /app/data

USER 10001
VOLUME ["/app/data"]
ENV BOT_DATABASE=/app/data/bot.sqlite3
EXPOSE 8080
# the running bot's /healthz when it serves HTTP (webhook mode, or BOT_HEALTH_LISTEN), else the
# database only; never calls Telegram (python: the slim image has no curl)
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 \
    CMD ["python", "-m", "bot", "check", "--quick"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
