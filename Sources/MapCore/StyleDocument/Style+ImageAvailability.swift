import Foundation

extension Style {
    /// `c` able to tell `image` expressions whether the style has an image of a name (in its
    /// sprite, or added as a vector icon), so that `coalesce` passes over missing ones.
    func withImages(_ c: EvaluationContext) -> EvaluationContext {
        let sprite = self.sprite, icons = self.icons
        var c = c
        c.imageAvailable = { name in sprite?.icons[name] != nil || icons[name] != nil }
        return c
    }
}
