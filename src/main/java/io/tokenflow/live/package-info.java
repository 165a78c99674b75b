/**
 * Live views: every instance tails the shards' events streams itself, and pushes server-rendered fragments over a
 * WebSocket ({@code /live}) to the pages subscribed to a topic ({@code run:<id>}, {@code runs}, {@code approvals}),
 * coalesced per topic. What a topic shows is rendered by the feature that owns it ({@link io.tokenflow.live.LiveView}).
 */
package io.tokenflow.live;
