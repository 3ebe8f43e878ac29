# Build: the same Maven command as the README, inside the image. .dockerignore keeps the context to pom.xml, src
# and conf.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src src
RUN mvn -B -q package -DskipTests

# Run: Debian/Ubuntu-based JRE (the embedded PostgreSQL binaries need glibc), as a non-root user.
FROM eclipse-temurin:17-jre
# tini as PID 1 forwards SIGTERM to the JVM and reaps the embedded PostgreSQL's children
# (https://github.com/krallin/tini); curl for the health check.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app eventrouter \
 && mkdir -p /app/data /app/conf && chown -R eventrouter /app
WORKDIR /app
COPY --from=build /src/target/event-router.jar /app/event-router.jar
COPY conf/config.json conf/rates.csv /app/conf/
USER eventrouter
# The embedded PostgreSQL keeps its data here unless DATABASE_URL points at an external server.
VOLUME /app/data
EXPOSE 8080
# Ready: the database answers, the schema is applied, the config is loaded (and, clustered, the node has joined).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD curl -fsS -o /dev/null http://127.0.0.1:8080/health/ready || exit 1
# A clean stop drains requests (up to http.request_timeout_ms, 10 s), lets the forwarders finish the batch under
# way and stops PostgreSQL after a checkpoint: give it time, e.g. `docker run --stop-timeout 60` or compose's
# `stop_grace_period: 60s`. Docker's default of 10 s ends in a SIGKILL, which loses nothing acknowledged but
# makes the next start replay the WAL.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "java", "-jar", "/app/event-router.jar"]
