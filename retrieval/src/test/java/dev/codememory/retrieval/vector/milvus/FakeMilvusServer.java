package dev.codememory.retrieval.vector.milvus;

import io.milvus.grpc.BoolResponse;
import io.milvus.grpc.ConnectRequest;
import io.milvus.grpc.ConnectResponse;
import io.milvus.grpc.HasCollectionRequest;
import io.milvus.grpc.ListDatabasesRequest;
import io.milvus.grpc.ListDatabasesResponse;
import io.milvus.grpc.MilvusServiceGrpc;
import io.milvus.shaded.io.grpc.Metadata;
import io.milvus.shaded.io.grpc.Server;
import io.milvus.shaded.io.grpc.ServerCall;
import io.milvus.shaded.io.grpc.ServerCallHandler;
import io.milvus.shaded.io.grpc.ServerInterceptor;
import io.milvus.shaded.io.grpc.ServerInterceptors;
import io.milvus.shaded.io.grpc.Status;
import io.milvus.shaded.io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.milvus.shaded.io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for a Milvus server with authorization on, for what Milvus Lite cannot show
 * (it accepts any token). It serves on a loopback port the few calls the SDK's client
 * makes while connecting ({@code Connect}, {@code ListDatabases} when a database is set)
 * and {@code HasCollection}, records each call's {@code authorization} header, and checks
 * that header as Milvus's proxy does: base64 of {@code user:password} (or of an API key),
 * refused with {@code UNAUTHENTICATED} and Milvus's own words when it is missing,
 * malformed or not the one expected. The gRPC classes are the SDK's shaded copy: its
 * generated service classes are built against them.
 */
final class FakeMilvusServer implements AutoCloseable {

    static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization",
            Metadata.ASCII_STRING_MARSHALLER);

    /** One call as the server saw it. */
    record Call(String method, String authorization) {
    }

    private final String credentials;

    private final boolean echoes;

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    private final Server server;

    /**
     * @param credentials the token it accepts, as configured ({@code user:password} or an
     * API key); null: authorization off, every call accepted
     * @param echoes whether a refusal quotes the user and password it was sent, as Milvus
     * 2.2 did
     */
    FakeMilvusServer(String credentials, boolean echoes) throws IOException {
        this.credentials = credentials;
        this.echoes = echoes;
        this.server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(ServerInterceptors.intercept(new Service(), new Authentication()))
            .build()
            .start();
    }

    String uri() {
        return "http://127.0.0.1:" + server.getPort();
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    /** Why Milvus would refuse this header; null when it accepts it. */
    private String refusal(String header) {
        if (credentials == null) {
            return null;
        }
        if (header == null) {
            return "missing authorization in header";
        }
        String sent;
        try {
            sent = new String(Base64.getDecoder().decode(header), StandardCharsets.UTF_8);
        }
        catch (IllegalArgumentException e) {
            return "invalid token format";
        }
        if (sent.equals(credentials)) {
            return null;
        }
        String refused = "auth check failure, please check username and password are correct";
        int colon = sent.indexOf(':');
        return echoes && colon > 0
                ? refused + " (username: " + sent.substring(0, colon) + ", password: " + sent.substring(colon + 1) + ")"
                : refused;
    }

    private final class Authentication implements ServerInterceptor {

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                ServerCallHandler<Q, R> next) {
            String header = headers.get(AUTHORIZATION);
            calls.add(new Call(call.getMethodDescriptor().getBareMethodName(), header));
            String refusal = refusal(header);
            if (refusal != null) {
                call.close(Status.UNAUTHENTICATED.withDescription(refusal), new Metadata());
                return new ServerCall.Listener<>() {
                };
            }
            return next.startCall(call, headers);
        }

    }

    private static final class Service extends MilvusServiceGrpc.MilvusServiceImplBase {

        @Override
        public void connect(ConnectRequest request, StreamObserver<ConnectResponse> response) {
            response.onNext(ConnectResponse.newBuilder().setIdentifier(1).build());
            response.onCompleted();
        }

        @Override
        public void listDatabases(ListDatabasesRequest request, StreamObserver<ListDatabasesResponse> response) {
            response.onNext(ListDatabasesResponse.newBuilder().addDbNames("default").addDbNames("team").build());
            response.onCompleted();
        }

        @Override
        public void hasCollection(HasCollectionRequest request, StreamObserver<BoolResponse> response) {
            response.onNext(BoolResponse.newBuilder().setValue(false).build());
            response.onCompleted();
        }

    }

}
