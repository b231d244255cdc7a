# syntax=docker/dockerfile:1
# Tollgate gateway: the server (dist/) plus the built console (frontend/dist), one process.
#   docker build -t tollgate .
#   docker run -p 3000:3000 -v tollgate-data:/data -e SESSION_SECRET=... tollgate
# Without EVENT_STORE_URL / READ_STORE_URL it runs embedded (SQLite under /data); with them it
# uses EventStoreDB and MongoDB (see eventstore/docker-compose.yml).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- toolchain: what native modules (better-sqlite3) need to compile -------------------------
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# The lockfile, `allowScripts` and `strict-allow-scripts` are npm 11 features; the image ships npm 10.
RUN npm install -g npm@11.19.1
# node-gyp finds Node's headers in the image instead of downloading them.
ENV npm_config_nodedir=/usr/local \
    npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY frontend/package.json frontend/

# ---- deps: production node_modules of the server only (the console is bundled, not installed) --
FROM toolchain AS deps
RUN npm ci --omit=dev --workspaces=false

# ---- build: everything, compile server and console ---------------------------------------------
FROM toolchain AS build
RUN npm ci
COPY . .
RUN npm run build

# ---- runtime -----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/frontend/dist ./frontend/dist
# The code is read-only for the process; only /data is writable (embedded stores, session secret).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/status').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/gateway/src/main.js"]
