package io.tokenflow.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay between the application and a server that the chaos suite can cut: {@link #cut()} closes every
 * connection and refuses new ones (as a network partition or a server that went away does), {@link #restore()}
 * accepts again. Written by hand: a relay of a few dozen lines needs no library, and Toxiproxy (the usual tool)
 * would be another server to install.
 */
final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean cut;

    TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try {
            server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "tcp-proxy-" + targetPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Closes every open connection; new ones are closed as soon as they are accepted, until {@link #restore()}. */
    void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    void restore() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (cut) {
                    closeQuietly(client);
                    continue;
                }
                Socket target = new Socket();
                target.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                open.add(client);
                open.add(target);
                relay(client, target);
                relay(target, client);
            } catch (IOException e) {
                // a refused or failed connection ends that connection only
            }
        }
    }

    private void relay(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16_384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException closed) {
                // either side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-relay");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        cut();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
