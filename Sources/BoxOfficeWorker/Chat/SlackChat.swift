import JSONCore

/// Slack Block Kit messages (the body of `chat.postMessage` or of an incoming webhook): a header, a context line
/// saying where the figures come from, then a section per entry (its poster as the image accessory), or a movie's
/// fields in sections of ten. Within Slack's documented limits (api.slack.com/reference/block-kit): 50 blocks a
/// message (more go to the next one), a header's text 150 characters, a section's text 3,000, a field's 2,000, ten
/// fields a section. mrkdwn text escapes `&`, `<` and `>` (so no title can mention a channel).
enum SlackChat {
    static let blocksPerMessage = 50
    static let headerLength = 150
    static let sectionLength = 3000
    static let fieldLength = 2000
    static let fieldsPerSection = 10

    static func render(_ content: ChatContent) -> [JSONObject] {
        var blocks: [JSONValue] = [
            ["type": "header", "text": ["type": "plain_text", "text": .string(cut(content.heading, headerLength))]]
        ]
        if let source = content.source {
            blocks.append(["type": "context", "elements": [["type": "mrkdwn", "text": .string(escape(source))]]])
        }
        if !content.fields.isEmpty {
            var title = "*" + escape(content.heading) + "*"
            if let subheading = content.subheading { title += "\n_" + escape(subheading) + "_" }
            for start in stride(from: 0, to: content.fields.count, by: fieldsPerSection) {
                let fields = content.fields[start..<min(start + fieldsPerSection, content.fields.count)]
                var section: JSONObject = [
                    "type": "section",
                    "fields": .array(
                        fields.map { field in
                            [
                                "type": "mrkdwn",
                                "text": .string(cut("*\(escape(field.name))*\n\(escape(field.value))", fieldLength)),
                            ]
                        }),
                ]
                if start == 0 {
                    section["text"] = ["type": "mrkdwn", "text": .string(cut(title, sectionLength))]
                    if let image = content.imageURL { section["accessory"] = self.image(image, alt: content.heading) }
                }
                blocks.append(.object(section))
            }
        }
        for item in content.items {
            var text = (item.rank.map { "\($0). " } ?? "") + "*" + escape(item.title) + "*"
            if let change = item.change { text += "  " + escape(change) }
            text += "\n" + escape(item.facts.map { "\($0.name) \($0.value)" }.joined(separator: " · "))
            var section: JSONObject = [
                "type": "section", "text": ["type": "mrkdwn", "text": .string(cut(text, sectionLength))],
            ]
            if let image = item.imageURL { section["accessory"] = self.image(image, alt: item.title) }
            blocks.append(.object(section))
        }
        if content.fields.isEmpty && content.items.isEmpty {
            blocks.append(["type": "section", "text": ["type": "mrkdwn", "text": "(nothing found)"]])
        }
        // `text` is what notifications and screen readers show.
        return stride(from: 0, to: blocks.count, by: blocksPerMessage).map { start in
            [
                "text": .string(cut(content.heading, sectionLength)),
                "blocks": .array(Array(blocks[start..<min(start + blocksPerMessage, blocks.count)])),
            ]
        }
    }

    private static func image(_ url: String, alt: String) -> JSONValue {
        ["type": "image", "image_url": .string(url), "alt_text": .string(cut(alt, fieldLength))]
    }

    /// mrkdwn text: `&`, `<` and `>` as entities.
    static func escape(_ text: String) -> String {
        ChatText.entities(text)
    }

    static func cut(_ text: String, _ length: Int) -> String {
        ChatText.cut(text, length)
    }
}
