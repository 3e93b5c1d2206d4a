/**
 * `@flowspec/stepflow/client`: the runtime side of the StepFlow protocol. Starts or connects to a
 * component server, performs the handshake, and answers its calls back. Node only.
 */
export { connectHttp, connectStdio, type ComponentClient, type ConnectOptions, type HttpConnectOptions, type RuntimeServices } from "./client.js";
export { substituteEnv } from "./env.js";
