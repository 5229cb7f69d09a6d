import Foundation
import GRDB

/// Why the cache could not be opened or used.
package struct CacheStoreError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
