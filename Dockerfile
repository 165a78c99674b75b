# Build: docker build -t tokenflow .   Run: docker run -p 8080:8080 -v tokenflow-data:/app/data tokenflow
# With external servers: -e SPRING_DATASOURCE_URL=jdbc:postgresql://db:5432/tokenflow -e SPRING_DATASOURCE_USERNAME=...
#                        -e SPRING_DATASOURCE_PASSWORD=... -e SPRING_DATA_REDIS_HOST=redis
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY .mvn .mvn
COPY mvnw pom.xml ./
RUN ./mvnw -B -q dependency:go-offline
COPY src src
COPY e2e e2e
RUN ./mvnw -B -q -DskipTests package

FROM eclipse-temurin:17-jre
RUN useradd --system --create-home --home-dir /app tokenflow
WORKDIR /app
COPY --from=build /src/target/tokenflow-*.jar /app/tokenflow.jar
RUN mkdir -p /app/data && chown -R tokenflow /app
USER tokenflow
VOLUME /app/data
EXPOSE 8080
ENV TOKENFLOW_EMBEDDED_DATA_DIR=/app/data
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/tokenflow.jar"]
