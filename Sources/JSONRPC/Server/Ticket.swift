/// The position of an answer in the output, taken when its line is read.
package struct Ticket: Sendable, Hashable {
    let sequence: UInt64
}
