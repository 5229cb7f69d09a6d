/// The name of one kind of value derived from a cached body, and the type of that value.
///
/// A key is a small Hashable struct whose fields are the inputs the value was made from (a period, an entry count,
/// a source): two keys of different types never collide, and a value is always read back as the type it was
/// stored as.
package protocol DerivedKey: Hashable, Sendable {
    associatedtype Value: Sendable
}
