// Fuzz entry point for the WebSocket frame decoder and connection state machine: libFuzzer calls
// `LLVMFuzzerTestOneInput`; a plain build replays files (FuzzMain). See docs/fuzzing-websocket.md.
import CourtsideFuzzSupport
import CourtsideWebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    WebSocketFuzzInvariants.check(input)
    return 0
}

FuzzMain.run(
    name: "courtside-fuzz-websocket", testOneInput: fuzzTestOneInput, check: WebSocketFuzzInvariants.check)
