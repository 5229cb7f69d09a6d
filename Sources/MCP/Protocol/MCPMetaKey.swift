/// The reserved `_meta` keys of the modern era.
package enum MCPMetaKey {
    package static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
    package static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
    package static let clientInfo = "io.modelcontextprotocol/clientInfo"
    package static let serverInfo = "io.modelcontextprotocol/serverInfo"
}
