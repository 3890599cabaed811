package io.sqlqueue.it.lifecycle;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.Set;

/**
 * A TCP forwarder between the server and its database, so the tests can take the database away
 * for real: {@link #cut()} closes every forwarded connection and stops listening (new connections
 * are refused, as by a database host that is down), {@link #restore()} listens on the same port
 * again. The server's JDBC URL names this forwarder's port instead of the database's.
 */
final class TcpForwarder implements AutoCloseable {

    private final InetSocketAddress target;
    private final int port;
    /** Both sockets of every forwarded connection; guarded by {@code this}, like {@link #listener}. */
    private final Set<Socket> open = new HashSet<>();
    private ServerSocket listener;

    /** Listens on a free loopback port and forwards every connection to {@code host:targetPort}. */
    TcpForwarder(String host, int targetPort) throws IOException {
        this.target = new InetSocketAddress(host, targetPort);
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        accept(listener);
    }

    int port() {
        return port;
    }

    /** Closes all forwarded connections and the listening socket; returns how many connections it cut. */
    synchronized int cut() {
        int connections = open.size() / 2;
        closeQuietly(listener);
        listener = null;
        open.forEach(TcpForwarder::closeQuietly);
        open.clear();
        return connections;
    }

    /** Listens on the same port again. */
    synchronized void restore() throws IOException {
        if (listener == null) {
            listener = listen(port);
            accept(listener);
        }
    }

    @Override
    public void close() {
        cut();
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true); // the port must be ours again at once after a cut
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return s;
    }

    private void accept(ServerSocket socket) {
        daemon("forwarder-accept-" + port, () -> {
            while (true) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (IOException closedByCut) {
                    return;
                }
                Socket database = new Socket();
                try {
                    database.connect(target, 10_000);
                    client.setTcpNoDelay(true);
                    database.setTcpNoDelay(true);
                } catch (IOException e) {
                    closeQuietly(client);
                    closeQuietly(database);
                    continue;
                }
                if (!register(socket, client, database)) {
                    return;
                }
                pump(client, database, "forwarder-up-" + client.getPort());
                pump(database, client, "forwarder-down-" + client.getPort());
            }
        });
    }

    /** False (and both closed) when a cut came between accept and now: that connection must not live on. */
    private synchronized boolean register(ServerSocket acceptedBy, Socket client, Socket database) {
        if (listener != acceptedBy) {
            closeQuietly(client);
            closeQuietly(database);
            return false;
        }
        open.add(client);
        open.add(database);
        return true;
    }

    /** Copies one direction until either side closes, then closes both (database protocols need no half-close). */
    private void pump(Socket from, Socket to, String name) {
        daemon(name, () -> {
            byte[] buffer = new byte[16 * 1024];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException closed) {
                // one side went away (or a cut closed it): the other side must see it too
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                synchronized (this) {
                    open.remove(from);
                    open.remove(to);
                }
            }
        });
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception ignored) {
            // closing is all we wanted
        }
    }
}
