package struct HTTPResponse: Sendable {
    package var status: Int
    package var contentType: String?
    package var body: [UInt8]

    package init(status: Int, contentType: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
