# ragent: the chat bot image. Build: docker build -t ragent .   Run: see docker-compose.yml and docs/docker.md.
# Node 22 LTS (the code also runs on Node 20.19+ and 24).
ARG NODE_IMAGE=node:22-bookworm-slim

# ── Stage 1: build. `npm ci` installs every dependency and compiles src/ into dist/ (npm's `prepare`
#    runs `npm run build`); then the build tools are pruned. better-sqlite3 is a native module: its
#    prebuilt binary is downloaded when one matches, otherwise it compiles here with python3, make and g++.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json ./
COPY src ./src
# OCR needs nothing from Debian: tesseract.js runs WebAssembly, its English data is the npm package
# @tesseract.js-data/eng, and @napi-rs/canvas (rendering scanned PDF pages) comes with its prebuilt binary
# as the optional package matching the image (@napi-rs/canvas-linux-x64-gnu on amd64: bookworm is glibc).
# More OCR languages for RAGENT_OCR_LANGS: --build-arg OCR_LANGUAGES="deu fra" installs their packages.
ARG OCR_LANGUAGES=""
RUN npm ci \
 && npm prune --omit=dev --ignore-scripts \
 && for language in ${OCR_LANGUAGES}; do \
      npm install --omit=dev --ignore-scripts --no-save --save-exact "@tesseract.js-data/${language}@1.0.0" || exit 1; \
    done \
 && node -e "require.resolve('@tesseract.js-data/eng')" \
 && npm cache clean --force

# ── Stage 2: the runtime: the compiled JavaScript and production dependencies, no compilers, no sources.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    RAGENT_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY ocr-models ./ocr-models
# Fails the build, not the first scan, when the canvas binary does not load on this base image.
RUN node -e "require('@napi-rs/canvas').createCanvas(8, 8).toBuffer('image/png')"
# The index, checkpoints and feedback live in /data, owned by the image's unprivileged "node" user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# Slack HTTP mode only (SLACK_SIGNING_SECRET without SLACK_APP_TOKEN); Socket Mode and Discord need no port.
EXPOSE 3000
# Healthy = Ollama reachable with both models, data dir writable, Qdrant reachable if configured.
# --quiet prints only problems; the exit code is what Docker reads.
HEALTHCHECK --interval=60s --timeout=20s --start-period=120s --retries=3 \
  CMD ["node", "bin/ragent.js", "doctor", "--quiet", "--timeout", "5"]
# SIGTERM (docker stop) drains work in flight for up to 15 s: give the container a longer stop timeout.
CMD ["node", "bin/ragent.js", "start"]
