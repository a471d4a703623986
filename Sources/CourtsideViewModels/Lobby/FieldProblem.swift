import CourtsideModel

/// What is wrong with one form field: a stable `code` with the `values` its sentence names, and the English
/// `sentence` itself. Made in one place per problem so that the sentence and the code cannot drift apart; the pages
/// show their own language's sentence for a code they know (docs/i18n.md) and the server's sentence otherwise.
public struct FieldProblem: Equatable, Sendable {
    public let code: String
    /// The numbers (or words) the sentence names, by placeholder name: `["min": 5, "max": 12]`.
    public let values: [String: JSONValue]
    public let sentence: String

    public init(_ code: String, _ values: [String: JSONValue] = [:], sentence: String) {
        self.code = code
        self.values = values
        self.sentence = sentence
    }

    /// `{"code":"player_count","min":5,"max":12}`: one member of an error answer's `fieldCodes`.
    public var json: JSONValue {
        var members = values
        members["code"] = .string(code)
        return .object(members)
    }

    /// The members `fields` (the sentences) and `fieldCodes` (the codes with their values) of a form's error answer.
    public static func answerMembers(_ problems: [String: FieldProblem]) -> (fields: JSONValue, fieldCodes: JSONValue) {
        (.object(problems.mapValues { .string($0.sentence) }), .object(problems.mapValues(\.json)))
    }
}

extension DisplayNameError {
    /// The problem as a field's, with the model's sentence.
    public var fieldProblem: FieldProblem {
        switch self {
        case .empty: FieldProblem("name_empty", sentence: sentence)
        case .tooLong(let limit): FieldProblem("too_long", ["limit": .int(limit)], sentence: sentence)
        case .tooManyBytes(let limit): FieldProblem("too_many_bytes", ["limit": .int(limit)], sentence: sentence)
        case .tooManyMarks(let limit): FieldProblem("too_many_marks", ["limit": .int(limit)], sentence: sentence)
        case .controlCharacter(let value):
            FieldProblem("control_character", ["character": .string(Self.codePoint(value))], sentence: sentence)
        case .formatCharacter(let value):
            FieldProblem("format_character", ["character": .string(Self.codePoint(value))], sentence: sentence)
        case .unassigned(let value):
            FieldProblem("unassigned_character", ["character": .string(Self.codePoint(value))], sentence: sentence)
        case .invisible: FieldProblem("name_invisible", sentence: sentence)
        }
    }
}
