private typealias S = StyleProperties

/// The paint properties of symbol layers.
enum SymbolPaintProperty: Int, PaintProperty {
    case iconOpacity, iconColor, iconHaloColor, iconHaloWidth, iconHaloBlur
    case textOpacity, textColor, textHaloColor, textHaloWidth, textHaloBlur
    case iconEmissiveStrength, textEmissiveStrength
    case iconTranslate, iconTranslateAnchor, textTranslate, textTranslateAnchor

    static let layerType = LayerType.symbol
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .iconOpacity: return S.number("icon-opacity", 1, min: 0, max: 1, .data)
        case .iconColor: return S.color("icon-color", "#000000", .data)
        case .iconHaloColor: return S.color("icon-halo-color", "rgba(0, 0, 0, 0)", .data)
        case .iconHaloWidth: return S.number("icon-halo-width", 0, min: 0, .data)
        case .iconHaloBlur: return S.number("icon-halo-blur", 0, min: 0, .data)
        case .textOpacity: return S.number("text-opacity", 1, min: 0, max: 1, .data)
        case .textColor: return S.color("text-color", "#000000", .data)
        case .textHaloColor: return S.color("text-halo-color", "rgba(0, 0, 0, 0)", .data)
        case .textHaloWidth: return S.number("text-halo-width", 0, min: 0, .data)
        case .textHaloBlur: return S.number("text-halo-blur", 0, min: 0, .data)
        case .iconEmissiveStrength: return S.emissive("icon", .data)
        case .textEmissiveStrength: return S.emissive("text", .data)
        case .iconTranslate: return S.translate("icon")
        case .iconTranslateAnchor: return S.translateAnchor("icon")
        case .textTranslate: return S.translate("text")
        case .textTranslateAnchor: return S.translateAnchor("text")
        }
    }
}

/// The layout properties of symbol layers.
enum SymbolLayoutProperty: Int, LayoutProperty {
    case placement, spacing, avoidEdges, sortKey, zOrder
    case iconAllowOverlap, iconOverlap, iconIgnorePlacement, iconOptional, iconRotationAlignment, iconSize, iconTextFit,
         iconTextFitPadding, iconImage, iconRotate, iconPadding, iconKeepUpright, iconOffset, iconAnchor, iconPitchAlignment
    case textPitchAlignment, textRotationAlignment, textField, textFont, textSize, textMaxWidth, textLineHeight,
         textLetterSpacing, textJustify, textRadialOffset, textVariableAnchor, textVariableAnchorOffset, textAnchor,
         textMaxAngle, textWritingMode, textRotate, textPadding, textKeepUpright, textTransform, textOffset,
         textAllowOverlap, textOverlap, textIgnorePlacement, textOptional
    case visibility

    static let layerType = LayerType.symbol
    static let table = makeTable()

    var spec: PropertySpec {
        switch self {
        case .placement: return S.layoutEnum("symbol-placement", ["point", "line", "line-center"], "point")
        case .spacing: return S.layoutNumber("symbol-spacing", 250, min: 1, .zoom)
        case .avoidEdges: return S.layoutBool("symbol-avoid-edges", false)
        case .sortKey: return S.layoutNumber("symbol-sort-key", nil, .data, interpolated: false)
        case .zOrder: return S.layoutEnum("symbol-z-order", ["auto", "viewport-y", "source"], "auto")
        case .iconAllowOverlap: return S.layoutBool("icon-allow-overlap", false)
        case .iconOverlap: return S.layoutEnum("icon-overlap", S.overlaps, nil)
        case .iconIgnorePlacement: return S.layoutBool("icon-ignore-placement", false)
        case .iconOptional: return S.layoutBool("icon-optional", false)
        case .iconRotationAlignment: return S.layoutEnum("icon-rotation-alignment", S.alignments, "auto")
        case .iconSize: return S.layoutNumber("icon-size", 1, min: 0, .data)
        case .iconTextFit: return S.layoutEnum("icon-text-fit", ["none", "width", "height", "both"], "none")
        case .iconTextFitPadding:
            return S.spec("icon-text-fit-padding", .numberArray(count: 4), default: S.zeros(4), .zoom, interpolated: true, layout: true)
        case .iconImage: return S.spec("icon-image", .resolvedImage, .data, tokens: true, layout: true)
        case .iconRotate: return S.layoutNumber("icon-rotate", 0, .data)
        case .iconPadding:
            return S.spec("icon-padding", .padding, default: .array(Array(repeating: .number(2), count: 4)), .data, interpolated: true,
                          layout: true)
        case .iconKeepUpright: return S.layoutBool("icon-keep-upright", false)
        case .iconOffset: return S.spec("icon-offset", .numberArray(count: 2), default: S.zeros(2), .data, interpolated: true, layout: true)
        case .iconAnchor: return S.layoutEnum("icon-anchor", S.anchors, "center", .data)
        case .iconPitchAlignment: return S.layoutEnum("icon-pitch-alignment", S.alignments, "auto")
        case .textPitchAlignment: return S.layoutEnum("text-pitch-alignment", S.alignments, "auto")
        case .textRotationAlignment: return S.layoutEnum("text-rotation-alignment", ["map", "viewport", "viewport-glyph", "auto"], "auto")
        case .textField: return S.spec("text-field", .formatted, default: .string(""), .data, tokens: true, layout: true)
        case .textFont:
            return S.spec("text-font", .stringArray(values: nil),
                          default: .array([.string("Open Sans Regular"), .string("Arial Unicode MS Regular")]), .data, layout: true)
        case .textSize: return S.layoutNumber("text-size", 16, min: 0, .data)
        case .textMaxWidth: return S.layoutNumber("text-max-width", 10, min: 0, .data)
        case .textLineHeight: return S.layoutNumber("text-line-height", 1.2, .zoom)
        case .textLetterSpacing: return S.layoutNumber("text-letter-spacing", 0, .data)
        case .textJustify: return S.layoutEnum("text-justify", ["auto", "left", "center", "right"], "center", .data)
        case .textRadialOffset: return S.layoutNumber("text-radial-offset", 0, .data)
        case .textVariableAnchor: return S.spec("text-variable-anchor", .stringArray(values: S.anchors), .zoom, layout: true)
        case .textVariableAnchorOffset:
            return S.spec("text-variable-anchor-offset", .variableAnchorOffsets, .data, interpolated: true, layout: true)
        case .textAnchor: return S.layoutEnum("text-anchor", S.anchors, "center", .data)
        case .textMaxAngle: return S.layoutNumber("text-max-angle", 45, .zoom)
        case .textWritingMode: return S.spec("text-writing-mode", .stringArray(values: ["horizontal", "vertical"]), .zoom, layout: true)
        case .textRotate: return S.layoutNumber("text-rotate", 0, .data)
        case .textPadding: return S.layoutNumber("text-padding", 2, min: 0, .zoom)
        case .textKeepUpright: return S.layoutBool("text-keep-upright", true)
        case .textTransform: return S.layoutEnum("text-transform", ["none", "uppercase", "lowercase"], "none", .data)
        case .textOffset: return S.spec("text-offset", .numberArray(count: 2), default: S.zeros(2), .data, interpolated: true, layout: true)
        case .textAllowOverlap: return S.layoutBool("text-allow-overlap", false)
        case .textOverlap: return S.layoutEnum("text-overlap", S.overlaps, nil)
        case .textIgnorePlacement: return S.layoutBool("text-ignore-placement", false)
        case .textOptional: return S.layoutBool("text-optional", false)
        case .visibility: return S.visibility
        }
    }
}
