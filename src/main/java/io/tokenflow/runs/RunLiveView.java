package io.tokenflow.runs;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.live.LiveChange;
import io.tokenflow.live.LiveEntry;
import io.tokenflow.live.LiveSubscriber;
import io.tokenflow.live.LiveView;
import io.tokenflow.live.RunEventFeeds;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.RunTenants;

/**
 * Topic {@code run:<id>}: the run page's changing regions, drawn at the run's newest event, with the hops since the
 * event the page last showed.
 */
@Component
class RunLiveView implements LiveView {

    private static final String PREFIX = "run:";
    /** The picture the page shows (pushed last), so the next push carries only what changed. */
    private static final String SHOWN = "shown";

    private final RunTenants runTenants;
    private final RunEventFeeds feeds;
    private final RunPages pages;
    private final RunFragments fragments;

    RunLiveView(RunEventFeeds feeds, RunPages pages, RunFragments fragments, RunTenants runTenants) {
        this.runTenants = runTenants;
        this.feeds = feeds;
        this.pages = pages;
        this.fragments = fragments;
    }

    @Override
    public boolean serves(String topic) {
        return topic.startsWith(PREFIX);
    }

    @Override
    public Collection<String> accept(LiveEntry entry) {
        feeds.offer(entry);
        return List.of(PREFIX + entry.run());
    }

    @Override
    public void check(LiveSubscriber subscriber) {
        UUID run = runOf(subscriber);
        // the page was drawn a moment ago: what happened since may have passed while no page here watched (the
        // tailers rest then), so the first push asks where the run is now
        feeds.behind(run);
        if (!pages.exists(run) || !runTenants.ofRun(run).map(CurrentTenant::sees).orElse(true)) {
            throw new IllegalArgumentException("Expected a run with id " + run + ", but there is none");
        }
    }

    @Override
    public boolean missed(String topic) {
        return feeds.behind(runOf(topic));
    }

    @Override
    public String render(LiveSubscriber subscriber, LiveChange change) {
        RunPicture picture = pages.picture(runOf(subscriber), null, subscriber.after());
        if (!change.full() && picture.seq() <= subscriber.after()) {
            return "";
        }
        RunPicture shown = (RunPicture) subscriber.state().put(SHOWN, picture);
        subscriber.seen(picture.seq());
        return change.full() || shown == null ? fragments.state(picture) : fragments.changes(picture, shown);
    }

    private static UUID runOf(LiveSubscriber subscriber) {
        return runOf(subscriber.topic());
    }

    private static UUID runOf(String topic) {
        String id = topic.substring(PREFIX.length());
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Expected a run id after 'run:', but found '" + id + "'");
        }
    }
}
