package io.tokenflow.redis;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/** The Lua steps (src/main/lua), each loaded once (its SHA computed once) per application. */
@Component
public class LuaScripts {

    private final LuaScript startRun;
    private final LuaScript routeCompletion;
    private final LuaScript dispatchJoin;
    private final LuaScript endRun;
    private final LuaScript decideApproval;
    private final LuaScript escalateApproval;
    private final LuaScript patchRun;
    private final LuaScript markStarted;
    private final LuaScript retryNode;
    private final LuaScript releaseRetry;
    private final LuaScript parkNode;
    private final LuaScript reprocessParked;
    private final LuaScript discardParked;
    private final LuaScript heartbeat;
    private final LuaScript resumeRun;
    private final LuaScript recoverRun;
    private final LuaScript startCompensation;
    private final LuaScript compensateStep;
    private final LuaScript holdWait;
    private final LuaScript takeWait;
    private final LuaScript startMap;
    private final LuaScript mapItem;
    private final LuaScript holdLease;
    private final LuaScript dropLease;
    private final LuaScript pushTombstone;
    private final LuaScript countHops;
    private final LuaScript forgetRuns;
    private final LuaScript counterDivergence;

    LuaScripts(RedisConnections redis, MeterRegistry meters) {
        var commands = redis.commands();
        this.startRun = LuaScript.load("start-run", commands, meters);
        this.routeCompletion = LuaScript.load("route-completion", commands, meters);
        this.dispatchJoin = LuaScript.load("dispatch-join", commands, meters);
        this.endRun = LuaScript.load("end-run", commands, meters);
        this.decideApproval = LuaScript.load("decide-approval", commands, meters);
        this.escalateApproval = LuaScript.load("escalate-approval", commands, meters);
        this.patchRun = LuaScript.load("patch-run", commands, meters);
        this.markStarted = LuaScript.load("mark-started", commands, meters);
        this.retryNode = LuaScript.load("retry-node", commands, meters);
        this.releaseRetry = LuaScript.load("release-retry", commands, meters);
        this.parkNode = LuaScript.load("park-node", commands, meters);
        this.reprocessParked = LuaScript.load("reprocess-parked", commands, meters);
        this.discardParked = LuaScript.load("discard-parked", commands, meters);
        this.heartbeat = LuaScript.load("heartbeat", commands, meters);
        this.resumeRun = LuaScript.load("resume-run", commands, meters);
        this.recoverRun = LuaScript.load("recover-run", commands, meters);
        this.startCompensation = LuaScript.load("start-compensation", commands, meters);
        this.compensateStep = LuaScript.load("compensate-step", commands, meters);
        this.holdWait = LuaScript.load("hold-wait", commands, meters);
        this.takeWait = LuaScript.load("take-wait", commands, meters);
        this.startMap = LuaScript.load("start-map", commands, meters);
        this.mapItem = LuaScript.load("map-item", commands, meters);
        this.holdLease = LuaScript.load("hold-lease", commands, meters);
        this.dropLease = LuaScript.load("drop-lease", commands, meters);
        this.pushTombstone = LuaScript.load("push-tombstone", commands, meters);
        this.countHops = LuaScript.load("count-hops", commands, meters);
        this.forgetRuns = LuaScript.load("forget-runs", commands, meters);
        this.counterDivergence = LuaScript.load("counter-divergence", commands, meters);
    }

    public LuaScript startRun() {
        return startRun;
    }

    public LuaScript routeCompletion() {
        return routeCompletion;
    }

    public LuaScript dispatchJoin() {
        return dispatchJoin;
    }

    public LuaScript endRun() {
        return endRun;
    }

    public LuaScript resumeRun() {
        return resumeRun;
    }

    public LuaScript recoverRun() {
        return recoverRun;
    }

    public LuaScript startCompensation() {
        return startCompensation;
    }

    public LuaScript compensateStep() {
        return compensateStep;
    }

    public LuaScript decideApproval() {
        return decideApproval;
    }

    public LuaScript escalateApproval() {
        return escalateApproval;
    }

    public LuaScript patchRun() {
        return patchRun;
    }

    public LuaScript markStarted() {
        return markStarted;
    }

    public LuaScript retryNode() {
        return retryNode;
    }

    public LuaScript releaseRetry() {
        return releaseRetry;
    }

    public LuaScript parkNode() {
        return parkNode;
    }

    public LuaScript reprocessParked() {
        return reprocessParked;
    }

    public LuaScript discardParked() {
        return discardParked;
    }

    public LuaScript heartbeat() {
        return heartbeat;
    }

    public LuaScript holdWait() {
        return holdWait;
    }

    public LuaScript takeWait() {
        return takeWait;
    }

    public LuaScript startMap() {
        return startMap;
    }

    public LuaScript mapItem() {
        return mapItem;
    }

    public LuaScript holdLease() {
        return holdLease;
    }

    public LuaScript dropLease() {
        return dropLease;
    }

    public LuaScript pushTombstone() {
        return pushTombstone;
    }

    public LuaScript countHops() {
        return countHops;
    }

    public LuaScript forgetRuns() {
        return forgetRuns;
    }

    public LuaScript counterDivergence() {
        return counterDivergence;
    }
}
