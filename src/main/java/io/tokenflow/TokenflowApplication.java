package io.tokenflow;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Tokenflow: visual workflow designer and token-choreography workflow engine in one application. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TokenflowApplication {

    public static void main(String[] args) {
        SpringApplication.run(TokenflowApplication.class, args);
    }
}
