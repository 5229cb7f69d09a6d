package import JSONCore

/// Slack Block Kit messages (the body of `chat.postMessage` or of an incoming webhook): a header, a context line
/// saying where the figures come from, then a section per entry (its poster as the image accessory), or a movie's
/// fields in sections of ten. Within Slack's documented limits (api.slack.com/reference/block-kit): 50 blocks a
/// message (more go to the next one), a header's text 150 characters, a section's text 3,000, a field's 2,000, ten
/// fields a section, counted in characters (Unicode scalars) as Slack counts them. Every text Slack parses — the
/// mrkdwn of sections, fields and the context, and the top-level `text` that notifications show — escapes `&`,
/// `<` and `>`, so no title or query can mention a channel, a user or link anywhere; a cut never splits an entity.
/// Plain text (the header, an image's alt text) is shown as it is written, so it is only cut.
package enum SlackChat {
    package static let blocksPerMessage = 50
    package static let headerLength = 150
    package static let sectionLength = 3000
    package static let fieldLength = 2000
    package static let fieldsPerSection = 10
    /// The most of one title or value in a section: a section holds a title, a change and a line of facts, each
    /// cut to this, so it stays within ``sectionLength`` without cutting its markup.
    package static let pieceLength = 900

    package static func render(_ content: AnswerView) -> [JSONObject] {
        var blocks: [JSONValue] = [
            [
                "type": "header",
                "text": ["type": "plain_text", "text": .string(ChatText.cut(content.heading, headerLength))],
            ]
        ]
        if let source = content.source {
            blocks.append([
                "type": "context", "elements": [["type": "mrkdwn", "text": .string(mrkdwn(source, sectionLength))]],
            ])
        }
        if !content.fields.isEmpty {
            var title = "*" + mrkdwn(content.heading, pieceLength) + "*"
            if let subheading = content.subheading { title += "\n_" + mrkdwn(subheading, pieceLength) + "_" }
            for start in stride(from: 0, to: content.fields.count, by: fieldsPerSection) {
                let fields = content.fields[start..<min(start + fieldsPerSection, content.fields.count)]
                var section: JSONObject = [
                    "type": "section",
                    "fields": .array(
                        fields.map { field in
                            [
                                "type": "mrkdwn",
                                "text": .string(
                                    "*\(mrkdwn(field.name, 250))*\n\(mrkdwn(field.value, fieldLength - 300))"),
                            ]
                        }),
                ]
                if start == 0 {
                    section["text"] = ["type": "mrkdwn", "text": .string(title)]
                    if let image = content.imageURL { section["accessory"] = self.image(image, alt: content.heading) }
                }
                blocks.append(.object(section))
            }
        }
        for item in content.items {
            var text = (item.rank.map { "\($0). " } ?? "") + "*" + mrkdwn(item.title, pieceLength) + "*"
            if let change = item.change { text += "  " + mrkdwn(change, pieceLength) }
            text += "\n" + mrkdwn(item.facts.map { "\($0.name) \($0.value)" }.joined(separator: " · "), pieceLength)
            var section: JSONObject = ["type": "section", "text": ["type": "mrkdwn", "text": .string(text)]]
            if let image = item.imageURL { section["accessory"] = self.image(image, alt: item.title) }
            blocks.append(.object(section))
        }
        if content.fields.isEmpty && content.items.isEmpty {
            blocks.append(["type": "section", "text": ["type": "mrkdwn", "text": "(nothing found)"]])
        }
        // `text` is what notifications and screen readers show.
        return stride(from: 0, to: blocks.count, by: blocksPerMessage).map { start in
            [
                "text": .string(mrkdwn(content.heading, sectionLength)),
                "blocks": .array(Array(blocks[start..<min(start + blocksPerMessage, blocks.count)])),
            ]
        }
    }

    private static func image(_ url: String, alt: String) -> JSONValue {
        ["type": "image", "image_url": .string(url), "alt_text": .string(ChatText.cut(alt, fieldLength))]
    }

    /// mrkdwn text: `&`, `<` and `>` as entities, within `length` characters.
    package static func mrkdwn(_ text: String, _ length: Int) -> String {
        ChatText.cut(text, length) { ChatText.entity($0) }
    }
}
