/// Why a run-time style change was refused; one line, naming the layer and property.
public struct StyleError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
