export { type RecordedRequest, type ScriptedModelServer, startScriptedModelServer } from './model-server.js';
export { type ModelScript, modelScript, type ScriptedReply, type ScriptedToolCall, scriptedReply } from './script.js';
export { type FaultProxy, startFaultProxy } from './fault-proxy.js';
