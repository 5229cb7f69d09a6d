/// A command line refused before any call: a date that is no date, flags that exclude each other, an output a
/// command does not write. Its description is the one line said on stderr, and the command exits 64 (usage).
package struct CLIRefusal: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
