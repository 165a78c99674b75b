package io.tokenflow;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;

import java.time.Clock;

import io.tokenflow.dlq.DlqCommand;

/** Tokenflow: visual workflow designer and token-choreography workflow engine in one application. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TokenflowApplication {

    /** Starts the application; {@code dlq ...} instead runs the dead-letter command against a running one. */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("dlq")) {
            DlqCommand.main(args);
            return;
        }
        SpringApplication.run(TokenflowApplication.class, args);
    }

    /** The time source; tests replace it to control time. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
