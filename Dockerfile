# Build: the same Maven command as the README, inside the image.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src src
RUN mvn -B -q package -DskipTests

# Run: Debian/Ubuntu-based JRE (the embedded PostgreSQL binaries need glibc), as a non-root user.
FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 --home-dir /app eventrouter \
 && mkdir -p /app/data /app/conf && chown -R eventrouter /app
WORKDIR /app
COPY --from=build /src/target/event-router.jar /app/event-router.jar
COPY conf/config.json /app/conf/config.json
USER eventrouter
# The embedded PostgreSQL keeps its data here unless DATABASE_URL points at an external server.
VOLUME /app/data
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "/app/event-router.jar"]
