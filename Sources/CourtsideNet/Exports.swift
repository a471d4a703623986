// CourtsideNet's public API speaks in the protocol modules' types (HTTPRequest, HTTPResponse, WebSocketMessage,
// TLSContext, …), so an application importing CourtsideNet gets them too, as SwiftNIO's umbrella modules do.
@_exported import CourtsideHTTP
@_exported import CourtsideTLS
@_exported import CourtsideWebSocket
@_exported import CourtsideWebSocketDeflate
