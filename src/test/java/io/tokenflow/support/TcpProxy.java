package io.tokenflow.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on 127.0.0.1 between the application and a real server (PostgreSQL, Redis), which a test cuts — every
 * connection through it is closed and new ones are refused, as when the server goes away — and restores on the same
 * port. Written by hand: Toxiproxy and the like run as a server process of their own (a Go binary or a container),
 * which these machines do not have; a socket relay is all a test of an outage needs.
 */
public final class TcpProxy {

    private final InetSocketAddress upstream;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private ServerSocket listener;

    private TcpProxy(InetSocketAddress upstream) {
        this.upstream = upstream;
        this.listener = listen(0);
        this.port = listener.getLocalPort();
    }

    /** A proxy to {@code host:port}, relaying from now on. */
    public static TcpProxy to(String host, int port) {
        return new TcpProxy(new InetSocketAddress(host, port));
    }

    /** The port the application connects to instead of the server's. */
    public int port() {
        return port;
    }

    /** Closes every relayed connection and refuses new ones until {@link #restore()}. */
    public synchronized void cut() {
        if (listener != null) {
            closeQuietly(listener);
            listener = null;
        }
        sockets.forEach(TcpProxy::closeQuietly);
        sockets.clear();
    }

    /** Relays again, on the same port. */
    public synchronized void restore() {
        if (listener == null) {
            listener = listen(port);
        }
    }

    private ServerSocket listen(int onPort) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort));
            daemon("tcp-proxy-accept-" + server.getLocalPort(), () -> accept(server));
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("Expected to listen on port " + onPort + " for " + upstream
                    + ", but could not", e);
        }
    }

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                relay(server.accept());
            } catch (IOException cut) {
                // the listener was closed: the loop ends
            }
        }
    }

    private void relay(Socket client) {
        Socket toServer = new Socket();
        sockets.add(client);
        sockets.add(toServer);
        try {
            toServer.connect(upstream, 2_000);
        } catch (IOException refused) {
            closeQuietly(client); // the application sees its connection closed, as the server would
            return;
        }
        daemon("tcp-proxy-up", () -> pump(client, toServer));
        daemon("tcp-proxy-down", () -> pump(toServer, client));
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException closed) {
            // either side went away: close both below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    private static void daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception alreadyClosed) {
            // nothing left to do
        }
    }
}
