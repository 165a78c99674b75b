package io.tokenflow.redis;

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

    LuaScripts(RedisConnections redis) {
        var commands = redis.commands();
        this.startRun = LuaScript.load("start-run", commands);
        this.routeCompletion = LuaScript.load("route-completion", commands);
        this.dispatchJoin = LuaScript.load("dispatch-join", commands);
        this.endRun = LuaScript.load("end-run", commands);
        this.decideApproval = LuaScript.load("decide-approval", commands);
        this.escalateApproval = LuaScript.load("escalate-approval", commands);
        this.patchRun = LuaScript.load("patch-run", commands);
        this.markStarted = LuaScript.load("mark-started", commands);
        this.retryNode = LuaScript.load("retry-node", commands);
        this.releaseRetry = LuaScript.load("release-retry", commands);
        this.parkNode = LuaScript.load("park-node", commands);
        this.reprocessParked = LuaScript.load("reprocess-parked", commands);
        this.discardParked = LuaScript.load("discard-parked", commands);
        this.heartbeat = LuaScript.load("heartbeat", commands);
        this.resumeRun = LuaScript.load("resume-run", commands);
        this.recoverRun = LuaScript.load("recover-run", commands);
        this.startCompensation = LuaScript.load("start-compensation", commands);
        this.compensateStep = LuaScript.load("compensate-step", commands);
        this.holdWait = LuaScript.load("hold-wait", commands);
        this.takeWait = LuaScript.load("take-wait", commands);
        this.startMap = LuaScript.load("start-map", commands);
        this.mapItem = LuaScript.load("map-item", commands);
        this.holdLease = LuaScript.load("hold-lease", commands);
        this.dropLease = LuaScript.load("drop-lease", commands);
        this.pushTombstone = LuaScript.load("push-tombstone", commands);
        this.countHops = LuaScript.load("count-hops", commands);
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
}
