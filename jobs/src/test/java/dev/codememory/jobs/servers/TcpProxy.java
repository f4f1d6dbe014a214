package dev.codememory.jobs.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A byte-for-byte TCP relay on 127.0.0.1 in front of a server, which a test can stop (the
 * port then refuses connections and every open connection is cut, as when the server
 * dies) and start again on the same port.
 */
public final class TcpProxy implements AutoCloseable {

    private final String targetHost;

    private final int targetPort;

    private final int port;

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private volatile ServerSocket listener;

    public TcpProxy(URI target) throws IOException {
        this.targetHost = target.getHost();
        this.targetPort = target.getPort();
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        }
        start();
    }

    public String uri() {
        return "http://127.0.0.1:" + port;
    }

    public synchronized void start() throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        listener = server;
        Thread accept = new Thread(() -> accept(server), "tcp-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /** Refuses new connections and cuts the open ones. */
    public synchronized void stop() throws IOException {
        if (listener != null) {
            listener.close();
            listener = null;
        }
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    @Override
    public void close() throws IOException {
        stop();
    }

    private void accept(ServerSocket server) {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            }
            catch (IOException e) {
                continue; // closed by stop()
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            }
            catch (IOException e) {
                try {
                    client.close(); // the target refused: the client sees its socket end
                }
                catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[65536];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0;) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
            catch (IOException e) {
                // cut
            }
            finally {
                try {
                    from.close();
                    to.close();
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }, "tcp-proxy-pipe");
        t.setDaemon(true);
        t.start();
    }

}
