import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

extension HTTPClientError {
    /// A name for the error without any URL in it.
    var shortDescription: String {
        String(String(describing: self).prefix { $0 != "(" })
    }
}
