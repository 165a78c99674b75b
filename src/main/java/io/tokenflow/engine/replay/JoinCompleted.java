package io.tokenflow.engine.replay;

import java.util.List;

/**
 * Every expected token arrived at a join: the arrivals are consumed (−arrivals); the join token is emitted by the
 * {@link TokenEmitted} that comes with it.
 */
public record JoinCompleted(EventHeader header, int iteration, List<String> arrivals) implements RunEvent {

    public JoinCompleted {
        arrivals = List.copyOf(arrivals);
    }

    static JoinCompleted read(EventHeader header, EventJson data) {
        return new JoinCompleted(header.requireNodeAndToken("join.completed"), data.iteration(),
                data.texts("arrivals"));
    }

    @Override
    public RunEventType type() {
        return RunEventType.JOIN_COMPLETED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.completeJoin(this);
    }
}
