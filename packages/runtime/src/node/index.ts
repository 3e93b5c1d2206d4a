export { ChildEndedError, connectStreams, consoleToStderr, findExecutable, serveProcessStdio, spawnPeer, SpawnError, type SpawnedPeer, type SpawnOptions, type StreamPeerOptions } from "./streams.js";
export { createStreamableHttpListener, listenHttp, type RunningHttpServer, type StreamableHttpOptions } from "./http-server.js";
export { createNodeHttpPost, type NodeHttpPost } from "./http-post.js";
