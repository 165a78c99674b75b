package io.tokenflow.coordinator;

import org.springframework.stereotype.Component;

/** The coordinator's Lua steps, each loaded once (its SHA computed once) per application. */
@Component
public class CoordinatorScripts {

    private final LuaScript startRun;
    private final LuaScript routeCompletion;
    private final LuaScript dispatchJoin;
    private final LuaScript endRun;

    CoordinatorScripts(RedisConnections redis) {
        var commands = redis.commands();
        this.startRun = LuaScript.load("start-run", commands);
        this.routeCompletion = LuaScript.load("route-completion", commands);
        this.dispatchJoin = LuaScript.load("dispatch-join", commands);
        this.endRun = LuaScript.load("end-run", commands);
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
}
