export { ErrorCode, JsonRpcError, JsonRpcTransportError, type JsonRpcErrorObject } from "./errors.js";
export {
  classifyMessage,
  type Classified,
  type JsonRpcFailure,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  type RequestId,
} from "./messages.js";
export { createPeer, JsonRpcResultError, type CallOptions, type Peer, type PeerOptions, type RequestContext, type RequestHandler } from "./peer.js";
export { byteLimit, createLineReader, DEFAULT_MAX_LINE_BYTES, type LineReader } from "./lines.js";
export { createHttpClient, fetchPost, POST_HEADERS, type HttpClient, type HttpClientOptions, type HttpPost, type HttpReply } from "./http-client.js";
