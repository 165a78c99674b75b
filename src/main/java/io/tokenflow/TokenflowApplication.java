package io.tokenflow;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

import java.time.Clock;

/** Tokenflow: visual workflow designer and token-choreography workflow engine in one application. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TokenflowApplication {

    public static void main(String[] args) {
        SpringApplication.run(TokenflowApplication.class, args);
    }

    /** The time source; tests replace it to control time. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
